import { administers, forbidden, systemActor } from '../../access/index.js';
import { PSEUDO_USERS } from '../../shared/actor.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadVersion } from '../../workflow/versions.js';
import { getRecord } from '../records/index.js';
import { loadSchema } from '../worksheets/index.js';
import { stepConfig } from './decision-checks.js';
import { instanceOf } from './instance-actions.js';
import * as repository from './repository.js';
import { INSTANCE_STATUS, iso } from './statuses.js';

/** The fields a step shows: its `visibleFields` (every field when absent) and the fields it lets fill. */
function shownFields(config: Record<string, unknown> | null): { visible: Set<string> | null; fill: Array<{ fieldId: string; required?: boolean }> } {
  const fill = (config?.fields as Array<{ fieldId: string; required?: boolean }> | undefined) ?? [];
  const listed = config?.visibleFields as string[] | undefined;
  return { visible: listed ? new Set([...listed, ...fill.map((f) => f.fieldId)]) : null, fill };
}

/**
 * The record as the to-do shows it. Through a step, read as the workflow reads it and narrowed to
 * the step's fields (its assignee sees what the step shows, whatever their role). Otherwise (the
 * initiator, an administrator without a to-do) read as the caller, with the caller's rights; null
 * when they may not read it or it is gone.
 */
async function recordView(ctx: ServiceContext, run: repository.InstanceRun, config: Record<string, unknown> | null, throughStep: boolean) {
  if (!run.worksheet_id || !run.row_id) return null;
  const reader: ServiceContext = throughStep
    ? { ...ctx, actor: systemActor({ job: `todo:${run.id}`, appId: run.app_id, organizationId: ctx.actor.organizationId, accountId: 'user-workflow', writes: false }) }
    : ctx;
  try {
    const schema = await loadSchema(reader, run.worksheet_id);
    const flat = (await getRecord(reader, run.worksheet_id, run.row_id, { useFieldIdAsKey: true })) as Record<string, unknown>;
    const { visible } = shownFields(throughStep ? config : null);
    const fields = schema.fields
      .filter((f) => f.id in flat && (visible === null || visible.has(f.id)))
      .map((f) => ({ id: f.id, name: f.name, alias: f.alias, type: f.type, value: flat[f.id] }));
    return { worksheetId: run.worksheet_id, rowId: run.row_id, fields };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * One instance as a to-do shows it (`?workId=` names the to-do; else the caller's latest): the
 * record with the fields the step shows, the fields it lets fill, who it waits on, and the history
 * of opinions. For the to-do's assignee, the initiator and administrators only (10005). Opening a
 * copy marks it read.
 */
export async function instanceDetail(ctx: ServiceContext, instanceId: string, workId: string | undefined) {
  const run = await instanceOf(ctx, instanceId);
  const items = await repository.itemsOfRun(ctx.db, run.id);
  const me = ctx.actor.userId;
  const mine = items.filter((i) => me !== null && i.assignee_id === me);
  const work = workId ? items.find((i) => i.id === workId) : (mine.find((i) => Number(i.status) === 0) ?? mine.at(-1));
  if (workId && !work) throw AppError.notFound(`workId "${workId.slice(0, 60)}": no to-do of instance "${run.id}"`);
  const initiator = me !== null && me === run.initiator_id;
  const assignee = work !== undefined && work.assignee_id === me;
  if (!assignee && !initiator && !administers(ctx.actor)) throw forbidden(ctx.actor, 'only an assignee of this instance, its initiator or an administrator of the application may see it');
  const loaded = await loadVersion(ctx.db, run.workflow_id, run.version);
  const config = work ? stepConfig(loaded, work) : null;
  const throughStep = work !== undefined && (assignee || administers(ctx.actor));
  if (work && assignee && Number(work.kind) === 5 && Number(work.status) === 0) await repository.markCopyRead(ctx.db, work.id, ctx.now());
  const schema = run.worksheet_id && Number(work?.kind) === 3 ? await loadSchema(ctx, run.worksheet_id).catch(() => null) : null;
  const names = await repository.accountNames(ctx.db, [run.initiator_id, ...items.flatMap((i) => [i.assignee_id, ...(i.acted_by ? [i.acted_by] : [])])]);
  const person = (id: string) => ({ accountId: id, fullname: names.get(id) ?? PSEUDO_USERS.get(id) ?? id });
  const stepItem = (i: repository.WorkItemRow) => ({ workId: i.id, type: Number(i.kind), nodeAlias: i.node_alias, nodeName: i.node_name, assignee: person(i.assignee_id) });
  return {
    id: run.id,
    processId: run.workflow_id,
    processName: loaded.definition.name,
    status: INSTANCE_STATUS[run.status] ?? 1,
    initiator: person(run.initiator_id),
    startedAt: iso(run.started_at)!,
    endedAt: iso(run.ended_at),
    reason: run.status === 'aborted' || run.status === 'failed' ? run.error : null,
    work: work
      ? { ...stepItem(work), status: Number(work.status), mode: work.mode, opinionRequired: config?.opinionRequired === true, note: work.note, dueAt: iso(work.due_at), createdAt: iso(work.created_at)! }
      : null,
    record: await recordView(ctx, run, config, throughStep),
    fillable: shownFields(config).fill.map((f) => {
      const field = schema?.byKey.get(f.fieldId);
      return { id: f.fieldId, name: field?.name ?? f.fieldId, type: field?.type ?? '', required: f.required === true };
    }),
    pending: items.filter((i) => Number(i.status) === 0 && Number(i.kind) !== 5).map(stepItem),
    history: items
      .filter((i) => i.action !== null && i.action !== 'none' && i.action !== 'read')
      .map((i) => ({ ...stepItem(i), status: Number(i.status), action: i.action, opinion: i.opinion ?? '', actedBy: i.acted_by ? person(i.acted_by) : null, actedAt: iso(i.acted_at) })),
  };
}
