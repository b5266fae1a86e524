import { randomBytes } from 'node:crypto';
import { inRetriedTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { forgetWorksheetListeners, planTimeTrigger } from '../../workflow/index.js';
import { workflowLookups } from './check-context.js';
import { currentVersion, draftNodes, publishedVersion, requireWorkflowReader, within, workflowToEdit, workflowToRead } from './drafts.js';
import { draftTriggerOf, hasUnpublishedChanges, presentListed, presentWorkflow } from './presenter.js';
import * as repository from './repository.js';
import { isRecord, storedTriggerKind, triggerKindOf, type TriggerKind } from './triggers/index.js';

const MAX_NAME = 100;
const MAX_DESCRIPTION = 2000;

/** A workflow's info and trigger as sent: `trigger: {type, config}`, or the public flat `triggerType` (+ `triggerConfig`). */
export interface WorkflowInput {
  name?: unknown;
  description?: unknown;
  trigger?: unknown;
  triggerType?: unknown;
  triggerConfig?: unknown;
}

function nameOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw AppError.invalidParameters('name is required');
  if (value.trim().length > MAX_NAME) throw AppError.invalidValue(`name: at most ${MAX_NAME} characters`);
  return value.trim();
}

function descriptionOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw AppError.invalidValue('description must be a string');
  if (value.length > MAX_DESCRIPTION) throw AppError.invalidValue(`description: at most ${MAX_DESCRIPTION} characters`);
  return value.trim();
}

/**
 * The trigger a body gives, if any: `trigger: {type, config}`, `trigger: {type, …config keys}`,
 * `trigger: <type>`, or `triggerType` with `triggerConfig`.
 */
function triggerInputOf(input: WorkflowInput): { type?: unknown; config?: unknown } | undefined {
  if (isRecord(input.trigger)) {
    const { type, triggerType, config, ...flat } = input.trigger;
    return { type: type ?? triggerType ?? input.triggerType, config: config ?? (Object.keys(flat).length > 0 ? flat : input.triggerConfig) };
  }
  if (input.trigger !== undefined && input.trigger !== null) return { type: input.trigger, config: input.triggerConfig };
  if (input.triggerType !== undefined || input.triggerConfig !== undefined) return { type: input.triggerType, config: input.triggerConfig };
  return undefined;
}

/**
 * A trigger's config in its stored form. A draft may lack required settings (publishing checks
 * them); a setting that is given must be right (10002, one line per problem).
 */
async function preparedTrigger(ctx: ServiceContext, kind: TriggerKind, config: unknown): Promise<Record<string, unknown>> {
  if (config !== undefined && config !== null && !isRecord(config)) throw AppError.invalidValue('trigger.config must be an object');
  const prepared = await kind.prepare(isRecord(config) ? config : {}, workflowLookups(ctx).trigger);
  const wrong = prepared.problems.filter((p) => !p.missing);
  if (wrong.length > 0) throw AppError.invalidValue(wrong.map((p) => `trigger.config${p.path ? `.${p.path}` : ''}: ${p.message}`).join('\n'));
  return prepared.config;
}

/** The start node's alias: assigned, never "trigger" (facts §7.3). */
function newTriggerAlias(): string {
  return `start_${randomBytes(2).toString('hex')}`;
}

export async function createWorkflow(ctx: ServiceContext, input: WorkflowInput): Promise<{ id: string; processId: string; triggerAlias: string }> {
  const name = nameOf(input.name);
  const description = descriptionOf(input.description);
  const trigger = triggerInputOf(input);
  const kind = triggerKindOf(trigger?.type);
  const config = await preparedTrigger(ctx, kind, trigger?.config);
  const id = newObjectId();
  const triggerAlias = newTriggerAlias();
  const now = ctx.now();
  await repository.insertWorkflow(ctx.db, {
    id,
    app_id: ctx.actor.appId,
    name,
    description,
    trigger_type: kind.type,
    trigger_alias: triggerAlias,
    trigger_config: JSON.stringify(config),
    trigger_worksheet_id: null,
    status: 'draft',
    owner_id: ctx.actor.accountId,
    created_at: now,
    updated_at: now,
  });
  return { id, processId: id, triggerAlias };
}

/** The structure: the draft (`version` is the published one), or with `version` that published version as frozen. */
export async function getWorkflow(ctx: ServiceContext, id: string, version?: number) {
  const row = await workflowToRead(ctx, id);
  const [nodes, published] = await Promise.all([draftNodes(ctx.db, row.id), currentVersion(ctx.db, row)]);
  const trigger = draftTriggerOf(row);
  const unpublishedChanges = hasUnpublishedChanges(trigger, nodes, published);
  if (version === undefined) return presentWorkflow(row, { name: row.name, description: row.description, trigger, nodes, version: Number(row.published_version), unpublishedChanges });
  const frozen = version === Number(row.published_version) && published ? published : await publishedVersion(ctx.db, row, version);
  return presentWorkflow(row, { name: frozen.name, description: row.description, trigger: frozen.trigger, nodes: frozen.nodes, version, unpublishedChanges });
}

/**
 * Changes the name and description (at once, without publishing) and the draft's trigger: a new
 * `type` starts from an empty config unless one is sent; a `config` replaces the whole config.
 */
export async function updateWorkflow(ctx: ServiceContext, id: string, input: WorkflowInput) {
  await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, id);
    const changes: Parameters<typeof repository.updateWorkflow>[2] = { updated_at: ctx.now() };
    if (input.name !== undefined) changes.name = nameOf(input.name);
    if (input.description !== undefined) changes.description = descriptionOf(input.description);
    const trigger = triggerInputOf(input);
    if (trigger) {
      const kind = trigger.type === undefined ? storedTriggerKind(Number(row.trigger_type)) : triggerKindOf(trigger.type);
      const sameType = kind.type === Number(row.trigger_type);
      const config = trigger.config === undefined ? (sameType ? JSON.parse(row.trigger_config) : {}) : trigger.config;
      changes.trigger_type = kind.type;
      changes.trigger_config = JSON.stringify(await preparedTrigger(within(ctx, trx), kind, config));
    }
    await repository.updateWorkflow(trx, row.id, changes);
  });
  return getWorkflow(ctx, id);
}

export interface ListQuery {
  triggerType?: string | number;
  published?: boolean;
  pageIndex?: number;
  pageSize?: number;
}

/** The application's workflows, oldest first, narrowed by trigger type and publication. */
export async function listWorkflows(ctx: ServiceContext, query: ListQuery) {
  requireWorkflowReader(ctx);
  const triggerType = query.triggerType === undefined || query.triggerType === '' ? undefined : triggerKindOf(query.triggerType, 'triggerType').type;
  const rows = await repository.listWorkflows(ctx.db, ctx.actor.appId, { triggerType, published: query.published });
  const pageSize = query.pageSize ?? 100;
  const pageIndex = query.pageIndex ?? 1;
  return { workflows: rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize).map(presentListed), total: rows.length, pageIndex, pageSize };
}

/**
 * Deletes a workflow: it stops triggering at once and is gone from reads; its draft is removed.
 * Its published versions stay, so that runs in flight finish on the version they started with.
 */
export async function deleteWorkflow(ctx: ServiceContext, id: string): Promise<void> {
  const listened = await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, id);
    await repository.deleteAllNodes(trx, row.id);
    await repository.updateWorkflow(trx, row.id, { status: 'deleted', trigger_worksheet_id: null, updated_at: ctx.now() });
    // A deleted workflow's schedule or date sweep stops with it.
    await planTimeTrigger(trx, row.id, ctx.now(), ctx.timeZone);
    return row.trigger_worksheet_id;
  });
  if (listened) forgetWorksheetListeners(listened);
}

