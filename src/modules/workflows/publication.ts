import { inRetriedTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { forgetWorksheetListeners, planTimeTrigger, TriggerType, type TriggerSpec, type WorkflowDefinition } from '../../workflow/index.js';
import { workflowLookups, type WorkflowLookups } from './check-context.js';
import { draftNodes, publishedVersion, within, workflowToEdit, workflowToRead } from './drafts.js';
import { draftTriggerOf, inRunOrder } from './presenter.js';
import * as repository from './repository.js';
import type { WorkflowRow } from './repository.js';
import { getWorkflow } from './service.js';
import { storedTriggerKind } from './triggers/index.js';
import { problemLine, workflowProblems, type WorkflowProblem } from './workflow-check.js';

/** The draft as it would be published: its trigger (config in its stored form, worksheet resolved), its nodes, its problems. */
async function checkedDraft(ctx: ServiceContext, row: WorkflowRow, lookups: WorkflowLookups) {
  const draft = draftTriggerOf(row);
  const kind = storedTriggerKind(draft.type);
  const nodes = inRunOrder(await draftNodes(ctx.db, row.id));
  const problems = await workflowProblems(kind, draft.alias, draft.config, nodes, lookups, ctx.actor.appId);
  const { config } = await kind.prepare(draft.config, lookups.trigger);
  const trigger: TriggerSpec = { type: kind.type, alias: draft.alias, config, worksheetId: kind.worksheetOf(config) };
  return { trigger, nodes, problems };
}

/** Every problem that would stop the draft being published; `valid` when there is none. */
export async function validateWorkflow(ctx: ServiceContext, id: string): Promise<{ valid: boolean; errors: WorkflowProblem[] }> {
  const row = await workflowToRead(ctx, id);
  const { problems } = await checkedDraft(ctx, row, workflowLookups(ctx));
  return { valid: problems.length === 0, errors: problems.map(({ nodeAlias, path, message }) => ({ nodeAlias, path, message })) };
}

/**
 * Publishes the draft as a new version, after checking it whole (10001 `PUBLISH_FAILED`, one
 * problem per line). Runs started earlier go on with their version; new triggers use this one.
 */
export async function publishWorkflow(ctx: ServiceContext, id: string): Promise<{ version: number; published: true }> {
  const { version, listened } = await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, id);
    const inside = within(ctx, trx);
    const { trigger, nodes, problems } = await checkedDraft(inside, row, workflowLookups(inside));
    if (problems.length > 0) {
      const lines = problems.map((p) => problemLine(p));
      throw AppError.invalidParameters(`PUBLISH_FAILED: the workflow cannot be published (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):\n${lines.join('\n')}`);
    }
    const now = ctx.now();
    const version = Number(row.draft_version);
    const definition: WorkflowDefinition = { workflowId: row.id, appId: row.app_id, name: row.name, version, trigger, nodes };
    await repository.insertVersion(trx, { workflow_id: row.id, version, definition: JSON.stringify(definition), published_at: now, published_by: ctx.actor.accountId });
    const watched = trigger.type === TriggerType.worksheet ? trigger.worksheetId : null;
    await repository.updateWorkflow(trx, row.id, {
      status: 'published',
      published_version: version,
      draft_version: version + 1,
      trigger_config: JSON.stringify(trigger.config),
      trigger_worksheet_id: watched,
      updated_at: now,
    });
    await planTimeTrigger(trx, row.id, now, ctx.timeZone);
    return { version, listened: [row.trigger_worksheet_id, watched] };
  });
  for (const worksheetId of listened) if (worksheetId) forgetWorksheetListeners(worksheetId);
  return { version, published: true };
}

/** Puts the published version's trigger and nodes back into the draft, dropping the edits since. */
export async function discardDraft(ctx: ServiceContext, id: string) {
  await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, id);
    if (Number(row.published_version) === 0) throw AppError.invalidValue('the workflow was never published: there is no published version to go back to');
    const published = await publishedVersion(trx, row, Number(row.published_version));
    const now = ctx.now();
    await repository.deleteAllNodes(trx, row.id);
    await repository.insertNodes(trx, row.id, published.nodes, now);
    await repository.updateWorkflow(trx, row.id, { trigger_type: published.trigger.type, trigger_config: JSON.stringify(published.trigger.config), updated_at: now });
  });
  return getWorkflow(ctx, id);
}

/**
 * Closes (disables) a published workflow: nothing triggers it any more; runs in flight finish.
 * Publishing it again opens it. Closing a closed workflow changes nothing.
 */
export async function closeWorkflow(ctx: ServiceContext, id: string): Promise<{ status: 'closed'; published: false }> {
  const listened = await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, id);
    if (row.status === 'draft') throw AppError.invalidValue('the workflow was never published: there is nothing to close');
    if (row.status === 'published') {
      await repository.updateWorkflow(trx, row.id, { status: 'closed', updated_at: ctx.now() });
      await planTimeTrigger(trx, row.id, ctx.now(), ctx.timeZone);
    }
    return row.trigger_worksheet_id;
  });
  if (listened) forgetWorksheetListeners(listened);
  return { status: 'closed', published: false };
}
