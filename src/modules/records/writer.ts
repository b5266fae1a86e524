import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { AssignOnInsertContext, FieldMeta } from '../../fields/field-type.js';
import type { LinkEdit } from '../../fields/types/relation.js';
import type { AttachedFile, AttachmentEdit } from '../../fields/types/attachment.js';
import type { SubTableEdit } from '../../fields/types/sub-table.js';
import { newRowId } from '../../shared/ids.js';
import { API_SOURCE, type ChangeSource } from '../../shared/change-source.js';
import { AppError } from '../../shared/app-error.js';
import { rowTableName } from '../worksheets/worksheet-schema.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import { applyLinkEdits, planLinks, type LinkPlan } from './links/link-sync.js';
import { deleteLinksOfWorksheetRecords } from './links/link-cleanup.js';
import { childRowsOf, writeChildRows, type ChildWriter } from './links/sub-table-rows.js';
import { checkReferencesExist } from './references.js';
import { attachmentEditsOf, deleteFilesOfRecords, forgetUploads, removeUnreferenced, settleAttachments, uploadAttachments } from './attachments.js';
import { propagateChanges, worldComputes, type Change, type Recomputed } from './computed/propagate.js';
import type { ComputeTime } from './computed/related-values.js';
import { loadWorld, type World } from './computed/world.js';
import * as repository from './repository.js';
import { noteInsertedRows, noteRowChanges } from './row-counts.js';
import { logRecordChanges } from './logs/log-hook.js';
import { reportingDuplicates } from './unique-violation.js';
import type { ReferenceSet } from './value-codec.js';
import { purgeDiscussions } from '../discussions/purge-hook.js';
import { enforceBusinessRules, enforceRulesOnRecomputed } from './rules/rule-hook.js';
import { enqueueTriggeredRuns } from './workflow-outbox-hook.js';
import { enqueueKnowledgeReindex, reindexRecomputed } from './knowledge-reindex-hook.js';

/**
 * The record writer: every change to records (single and batch create, update, delete, from the
 * API and later from workflows and share forms) goes through here. Each call is one transaction
 * that reads the old values it needs, writes the row table and the link tables, and hands one
 * `RecordChange` per record to the hooks, inside the same transaction, so that whatever reacts to
 * a change (row counts now; computed fields, the record log and the workflow outbox later) commits
 * or rolls back with it. A feature that reacts to record changes is a hook here, never a second
 * write path.
 */

export { API_SOURCE, type ChangeSource };

/**
 * One record's change. `before` and `after` hold stored values by field id: of the fields the
 * change wrote (an update), every written field (a create: `before` is null), or nothing (a
 * delete: `after` is null). A relation's value is its list of related record ids.
 */
export interface RecordChange {
  worksheetId: string;
  rowId: string;
  kind: 'create' | 'update' | 'delete' | 'restore' | 'purge';
  before: Map<string, unknown> | null;
  after: Map<string, unknown> | null;
  source: ChangeSource;
  /**
   * Relation fields of this record that changed because other records were written: the reverse
   * field of a two-way relation, by field id, with the related ids it gained and lost. (Its own
   * written values are in `before`/`after`.)
   */
  linked?: Map<string, { added: string[]; removed: string[] }>;
}

/** Changes to records of another worksheet than the one written (the reverse side of two-way relations), with its schema. */
interface OtherChanges {
  schema: WorksheetSchema;
  changes: RecordChange[];
}

/** What a hook works in: the write's open transaction, who writes and when. */
export interface HookContext {
  trx: Executor;
  dialect: SqlDialect;
  schema: WorksheetSchema;
  /** The account the write is attributed to. */
  actorId: string;
  /** The write's time, epoch milliseconds. */
  now: number;
  /** The zone dates of the write are read in (`TIME_ZONE`). */
  timeZone: string;
  /** The records changed only as the other side of relations the write changed, not as written. */
  reached?: boolean;
}

/** Reacts to the changes of one write, inside its transaction; throwing rolls the write back. */
export type RecordHook = (changes: RecordChange[], hook: HookContext) => Promise<void>;

/**
 * Keeps the worksheet's live count and records version (`row-counts.ts`) for updates and
 * deletions (inserts are counted, and numbered, before their rows are written).
 */
const countChanges: RecordHook = async (changes, { trx, dialect, schema }) => {
  if (changes.length === 0 || changes[0].kind === 'create') return;
  // A purge of records already in the recycle bin changes no live count.
  const gone = changes.filter((c) => c.kind === 'delete' || (c.kind === 'purge' && c.before !== null)).length;
  const back = changes.filter((c) => c.kind === 'restore').length;
  await noteRowChanges(trx, dialect, schema.id, back - gone);
};

/** The hooks every write runs, in order. */
const HOOKS: RecordHook[] = [enforceBusinessRules, countChanges, logRecordChanges, purgeDiscussions, enqueueTriggeredRuns, enqueueKnowledgeReindex];

/** What a write with nothing computed in its world computed again. */
const NOTHING_RECOMPUTED: Recomputed = new Map();

/**
 * Business rules on, and re-indexing of, the records a write reached only through computed values
 * (the hooks handled the records it wrote): `changeLists` are every list of changes the hooks ran on.
 */
async function checkRecomputed(ctx: ServiceContext, trx: Executor, world: World, recomputed: Recomputed, changeLists: RecordChange[][]): Promise<void> {
  if (recomputed.size === 0) return;
  await reindexRecomputed(trx, ctx.now(), recomputed, changeLists);
  const checked = new Map<string, Set<string>>();
  for (const change of changeLists.flat()) {
    if (!checked.has(change.worksheetId)) checked.set(change.worksheetId, new Set());
    checked.get(change.worksheetId)!.add(change.rowId);
  }
  await enforceRulesOnRecomputed({ trx, dialect: ctx.dialect, actorId: ctx.actor.accountId, now: ctx.now(), timeZone: ctx.timeZone }, world, recomputed, checked);
}

async function runHooks(ctx: ServiceContext, trx: Executor, schema: WorksheetSchema, changes: RecordChange[], reached = false): Promise<void> {
  const hook: HookContext = { trx, dialect: ctx.dialect, schema, actorId: ctx.actor.accountId, now: ctx.now(), timeZone: ctx.timeZone, reached };
  for (const run of HOOKS) await run(changes, hook);
}

/** Stored values to driver parameters, by column name (link-stored values are not columns). */
function toColumns(dialect: SqlDialect, schema: WorksheetSchema, values: Map<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [fieldId, stored] of values) {
    const column = schema.byKey.get(fieldId)!.fieldType.column;
    if (column) columns[fieldId] = dialect.encode(column, stored);
  }
  return columns;
}

/**
 * A schema's fields whose written values the writer resolves or checks beyond their type: relations
 * (and, among them, sub-tables), attachments, and fields pointing at one record. Found once per loaded schema.
 */
interface ResolvedFields {
  links: FieldMeta[];
  owned: FieldMeta[];
  files: FieldMeta[];
  pointed: FieldMeta[];
}

const resolvedFieldsBySchema = new WeakMap<WorksheetSchema, ResolvedFields>();

function resolvedFields(schema: WorksheetSchema): ResolvedFields {
  let found = resolvedFieldsBySchema.get(schema);
  if (!found) {
    const links = schema.fields.filter((f) => f.fieldType.storage === 'links');
    found = {
      links,
      owned: links.filter((f) => f.fieldType.owns === true),
      files: schema.fields.filter((f) => f.fieldType.edits === 'files'),
      pointed: schema.fields.filter((f) => f.fieldType.pointsAt === 'record'),
    };
    resolvedFieldsBySchema.set(schema, found);
  }
  return found;
}

/** What a rollup filter's dynamic dates are resolved against: this write's time and zone. */
function computeTime(ctx: ServiceContext): ComputeTime {
  return { now: ctx.now(), timeZone: ctx.timeZone };
}

/**
 * A change's `after` values: the written map itself, unless relation values in it are to be replaced
 * by each record's related ids (then a copy per record).
 */
function afterValues(schema: WorksheetSchema, values: Map<string, unknown>): Map<string, unknown> {
  return resolvedFields(schema).links.length === 0 ? values : new Map(values);
}

/**
 * Checks that the records fields pointing at one record (cascading selects) are given exist and are
 * live in their worksheets: one statement per worksheet; 10002 naming the field and the ids otherwise.
 */
async function checkPointedRecords(trx: Executor, schema: WorksheetSchema, written: Array<Map<string, unknown>>): Promise<void> {
  for (const field of resolvedFields(schema).pointed) {
    const ids = [...new Set(written.map((values) => values.get(field.id)).filter((id): id is string => typeof id === 'string'))];
    if (ids.length === 0) continue;
    const live = await repository.liveRecordIds(trx, rowTableName(String(field.config.dataSource)), ids);
    const missing = ids.filter((id) => !live.has(id));
    if (missing.length > 0) throw AppError.invalidValue(`field "${field.name}": no record ${missing.slice(0, 10).map((id) => `"${id}"`).join(', ')} among its choices (or it was deleted)`);
  }
}

/** The child worksheets of a schema's sub-tables (all of them, or those the writes give values to), loaded before the transaction. */
async function childSchemas(ctx: ServiceContext, schema: WorksheetSchema, written?: Array<Map<string, unknown>>): Promise<Map<string, WorksheetSchema>> {
  const children = new Map<string, WorksheetSchema>();
  for (const field of resolvedFields(schema).owned) {
    if (written && !written.some((values) => values.has(field.id))) continue;
    children.set(field.id, await loadSchema(ctx, String(field.config.dataSource)));
  }
  return children;
}

/** Replaces a record's sub-table values by the links its written child rows give it (writing the children in the transaction). */
async function writeSubTables(ctx: ServiceContext, trx: Executor, schema: WorksheetSchema, children: Map<string, WorksheetSchema>, rowId: string, values: Map<string, unknown>, created: boolean): Promise<void> {
  for (const field of resolvedFields(schema).owned) {
    if (!values.has(field.id)) continue;
    values.set(field.id, await writeChildRows({ ...ctx, db: trx }, CHILD_WRITER, field, children.get(field.id)!, rowId, values.get(field.id) as SubTableEdit, created));
  }
}

/** The relation fields these writes give values to, each planned once (outside the transaction: it loads schemas). */
async function planLinkFields(ctx: ServiceContext, schema: WorksheetSchema, written: Array<Map<string, unknown>>): Promise<Map<string, LinkPlan>> {
  const plans = new Map<string, LinkPlan>();
  for (const field of resolvedFields(schema).links) {
    if (!written.some((values) => values.has(field.id))) continue;
    plans.set(field.id, planLinks(field, await loadSchema(ctx, String(field.config.dataSource))));
  }
  return plans;
}

/**
 * The reverse-side changes of a two-way relation: for each related record that gained or lost a
 * link, the records it gained and lost (as its reverse field shows them): the written ones, and
 * those a link was taken from (`unlinked`, by record: the related records they lost).
 */
function reverseChanges(outcomes: Map<string, { before: string[]; after: string[] }>, unlinked: Map<string, string[]>): Map<string, { added: string[]; removed: string[] }> {
  const byRelated = new Map<string, { added: string[]; removed: string[] }>();
  const entry = (id: string) => {
    let found = byRelated.get(id);
    if (!found) byRelated.set(id, (found = { added: [], removed: [] }));
    return found;
  };
  for (const [rowId, outcome] of outcomes) {
    for (const id of outcome.before) if (!outcome.after.includes(id)) entry(id).removed.push(rowId);
    for (const id of outcome.after) if (!outcome.before.includes(id)) entry(id).added.push(rowId);
  }
  for (const [rowId, lost] of unlinked) for (const id of lost) entry(id).removed.push(rowId);
  return byRelated;
}

/**
 * Puts changes of a relation field that records undergo because others were written (the reverse
 * side of a two-way relation, or links taken away) into the changes of the records they belong to:
 * a written record's own change, or a change of its own, grouped by worksheet in `others`.
 */
function noteLinkChanges(target: WorksheetSchema, fieldId: string, byRecord: Map<string, { added: string[]; removed: string[] }>, writtenSchemaId: string, written: Array<{ rowId: string; change: RecordChange }>, others: Map<string, OtherChanges>, source: ChangeSource): void {
  const writtenHere = target.id === writtenSchemaId ? new Map(written.map((w) => [w.rowId, w.change])) : null;
  for (const [rowId, links] of byRecord) {
    let change = writtenHere?.get(rowId);
    if (!change) {
      let group = others.get(target.id);
      if (!group) others.set(target.id, (group = { schema: target, changes: [] }));
      change = group.changes.find((c) => c.rowId === rowId);
      if (!change) group.changes.push((change = { worksheetId: target.id, rowId, kind: 'update', before: new Map(), after: new Map(), source }));
    }
    const merged = change.linked?.get(fieldId);
    (change.linked ??= new Map()).set(fieldId, merged ? { added: [...merged.added, ...links.added], removed: [...merged.removed, ...links.removed] } : links);
  }
}

/**
 * Applies every written relation value of these records; puts each record's related ids before and
 * after into its change, and the reverse field's change of two-way relations into `others` (by
 * worksheet). Returns what changed beyond the written records, for computed values: the other side's
 * field in the related records that gained or lost a link, and the records of this worksheet that
 * lost a related record to the written ones.
 */
async function writeLinks(trx: Executor, dialect: SqlDialect, schema: WorksheetSchema, plans: Map<string, LinkPlan>, written: Array<{ rowId: string; values: Map<string, unknown>; change: RecordChange }>, created: boolean, others: Map<string, OtherChanges>): Promise<Change[]> {
  const beyond: Change[] = [];
  for (const [fieldId, plan] of plans) {
    const writes = written.filter((w) => w.values.has(fieldId)).map((w) => ({ rowId: w.rowId, edit: w.values.get(fieldId) as LinkEdit }));
    if (writes.length === 0) continue;
    const { outcomes, unlinked } = await applyLinkEdits(trx, dialect, plan, writes, created);
    const touched = new Set<string>();
    for (const w of written) {
      const outcome = outcomes.get(w.rowId);
      if (!outcome) continue;
      w.change.before?.set(fieldId, outcome.before);
      w.change.after!.set(fieldId, outcome.after);
      for (const id of outcome.before) if (!outcome.after.includes(id)) touched.add(id);
      for (const id of outcome.after) if (!outcome.before.includes(id)) touched.add(id);
    }
    const source = written[0].change.source;
    if (plan.counterpart) {
      beyond.push({ worksheetId: plan.side.relatedWorksheetId, rowIds: [...touched], fields: new Set([plan.counterpart.id]) });
      noteLinkChanges(plan.related, plan.counterpart.id, reverseChanges(outcomes, unlinked), schema.id, written, others, source);
    }
    if (unlinked.size > 0) {
      beyond.push({ worksheetId: schema.id, rowIds: [...unlinked.keys()], fields: new Set([fieldId]) });
      noteLinkChanges(schema, fieldId, new Map([...unlinked].map(([rowId, removed]) => [rowId, { added: [], removed }])), schema.id, written, others, source);
    }
  }
  return beyond;
}

/** How an insert is made: where it comes from, and the ids to give the records (a submitted draft keeps its id). */
export interface InsertOptions {
  source?: ChangeSource;
  /** One id per record, in order; new ids when absent. */
  ids?: string[];
}

/**
 * Inserts records whose values are encoded (`value-codec.ts`): assigns ids, system columns and the
 * values types assign on insert (auto numbers), checks references, writes links, and counts and
 * numbers the records, in one transaction. Returns the new ids in order.
 */
export async function insertRecords(ctx: ServiceContext, schema: WorksheetSchema, encoded: Array<Map<string, unknown>>, refs: ReferenceSet, options: InsertOptions = {}): Promise<string[]> {
  const now = ctx.now();
  const actor = ctx.actor.accountId;
  const source = options.source ?? ctx.origin ?? API_SOURCE;
  const valueFields = schema.fields.filter((f) => f.fieldType.storage === 'column');
  const assigned = schema.fields.filter((f) => f.fieldType.assignOnInsert);
  const ids = options.ids ?? encoded.map(() => newRowId());
  const plans = await planLinkFields(ctx, schema, encoded);
  const world = await loadWorld(ctx, schema);
  const uploaded = await uploadAttachments(ctx, schema, encoded);
  const children = await childSchemas(ctx, schema, encoded);
  await inTransaction(ctx.db, async (trx) => {
    await checkReferencesExist(trx, ctx.actor.organizationId, refs);
    await checkPointedRecords(trx, schema, encoded);
    for (const [i, values] of children.size === 0 ? [] : encoded.entries()) await writeSubTables(ctx, trx, schema, children, ids[i], values, true);
    for (const [i, values] of resolvedFields(schema).files.length === 0 ? [] : encoded.entries()) {
      for (const field of attachmentEditsOf(schema, values)) {
        const { files } = await settleAttachments(trx, ctx, schema, field, ids[i], values.get(field.id) as AttachmentEdit, [], uploaded);
        values.set(field.id, files.length > 0 ? files : null);
      }
    }
    const io: AssignOnInsertContext = { now, timeZone: ctx.timeZone, reserveSequence: (key, count) => repository.reserveAutoNumbers(trx, key, count) };
    // Counted (and, where the engine does not number records as they go in, numbered) first: the numbers are needed below.
    const firstNumber = await noteInsertedRows(trx, ctx.dialect, schema.id, encoded.length);
    for (const field of assigned) {
      const values = await field.fieldType.assignOnInsert!(field, encoded.length, io);
      encoded.forEach((row, i) => row.set(field.id, values[i]));
    }
    const records = encoded.map((values, i) => {
      const record: Record<string, unknown> = { id: ids[i], _created_by: actor, _owner: actor, _updated_by: actor, _created_at: now, _updated_at: now, _deleted_at: null };
      if (firstNumber !== null) record._autoid = firstNumber + i;
      const columns = toColumns(ctx.dialect, schema, values);
      for (const field of valueFields) record[field.id] = columns[field.id] ?? null;
      return record;
    });
    await reportingDuplicates(ctx.dialect, schema, () => repository.insertRows(trx, ctx.dialect, schema.table, records));
    const written = encoded.map((values, i) => ({
      rowId: ids[i],
      values,
      change: { worksheetId: schema.id, rowId: ids[i], kind: 'create', before: null, after: afterValues(schema, values), source } satisfies RecordChange,
    }));
    const others = new Map<string, OtherChanges>();
    const beyond = await writeLinks(trx, ctx.dialect, schema, plans, written, true, others);
    // A new record gets every computed value, whatever it was given.
    const recomputed = worldComputes(world) ? await propagateChanges(trx, ctx.dialect, world, [{ worksheetId: schema.id, rowIds: ids, fields: new Set(schema.fields.map((f) => f.id)), created: true }, ...beyond], computeTime(ctx)) : NOTHING_RECOMPUTED;
    await runHooks(ctx, trx, schema, written.map((w) => w.change));
    for (const other of others.values()) await runHooks(ctx, trx, other.schema, other.changes, true);
    await checkRecomputed(ctx, trx, world, recomputed, [written.map((w) => w.change), ...[...others.values()].map((o) => o.changes)]);
  }).catch(async (error: unknown) => {
    await forgetUploads(ctx, uploaded);
    throw error;
  });
  return ids;
}

/** One update: the same encoded values on each of `ids`. */
export interface RecordUpdate {
  ids: string[];
  values: Map<string, unknown>;
}

/** The column fields an update writes. */
function columnFieldsOf(schema: WorksheetSchema, values: Map<string, unknown>): FieldMeta[] {
  return [...values.keys()].map((id) => schema.byKey.get(id)!).filter((f) => f.fieldType.storage === 'column');
}

/**
 * Applies encoded changes to live records, reading the values they replace first (inside the
 * transaction); returns the ids that were live and changed. A record that is not live is left out,
 * not an error: batch callers report it as failed.
 */
export async function updateRecords(ctx: ServiceContext, schema: WorksheetSchema, updates: RecordUpdate[], refs: ReferenceSet, source: ChangeSource = ctx.origin ?? API_SOURCE): Promise<string[]> {
  const now = ctx.now();
  const plans = await planLinkFields(ctx, schema, updates.map((u) => u.values));
  const world = await loadWorld(ctx, schema);
  const uploaded = await uploadAttachments(ctx, schema, updates.map((u) => u.values));
  const children = await childSchemas(ctx, schema, updates.map((u) => u.values));
  const removedFiles: string[] = [];
  const changedIds = await inTransaction(ctx.db, async (trx) => {
    await checkReferencesExist(trx, ctx.actor.organizationId, refs);
    await checkPointedRecords(trx, schema, updates.map((u) => u.values));
    const changes: RecordChange[] = [];
    const others = new Map<string, OtherChanges>();
    const computedChanges: Change[] = [];
    const system = { _updated_by: ctx.actor.accountId, _updated_at: now };
    for (const update of updates) {
      const fields = columnFieldsOf(schema, update.values);
      const old = await repository.liveValues(trx, schema.table, update.ids, fields.map((f) => f.id));
      const beforeOf = (rowId: string) => new Map(fields.map((field) => [field.id, ctx.dialect.decode(field.fieldType.column!, old.get(rowId)?.[field.id] ?? null)]));
      const attachments = attachmentEditsOf(schema, update.values);
      const ownsRows = resolvedFields(schema).owned.some((field) => update.values.has(field.id));
      let written: Array<{ rowId: string; values: Map<string, unknown>; change: RecordChange }>;
      if (attachments.length === 0 && !ownsRows) {
        const changed = await reportingDuplicates(ctx.dialect, schema, () => repository.updateRows(trx, schema.table, update.ids, { ...toColumns(ctx.dialect, schema, update.values), ...system }));
        written = changed.map((rowId) => ({ rowId, values: update.values, change: { worksheetId: schema.id, rowId, kind: 'update', before: beforeOf(rowId), after: afterValues(schema, update.values), source } }));
      } else {
        // Files and sub-table rows combine with what each record has: every record is written on its own.
        written = [];
        const live = fields.length > 0 ? update.ids.filter((id) => old.has(id)) : [...(await repository.liveRecordIds(trx, schema.table, update.ids))];
        for (const rowId of live) {
          const before = beforeOf(rowId);
          const values = new Map(update.values);
          await writeSubTables(ctx, trx, schema, children, rowId, values, false);
          for (const field of attachments) {
            const current = (before.get(field.id) as AttachedFile[] | null) ?? [];
            const settled = await settleAttachments(trx, ctx, schema, field, rowId, update.values.get(field.id) as AttachmentEdit, current, uploaded);
            values.set(field.id, settled.files.length > 0 ? settled.files : null);
            removedFiles.push(...settled.removedKeys);
          }
          await reportingDuplicates(ctx.dialect, schema, () => repository.updateRows(trx, schema.table, [rowId], { ...toColumns(ctx.dialect, schema, values), ...system }));
          written.push({ rowId, values, change: { worksheetId: schema.id, rowId, kind: 'update', before, after: afterValues(schema, values), source } });
        }
      }
      computedChanges.push({ worksheetId: schema.id, rowIds: written.map((w) => w.rowId), fields: new Set(update.values.keys()) });
      computedChanges.push(...(await writeLinks(trx, ctx.dialect, schema, plans, written, false, others)));
      changes.push(...written.map((w) => w.change));
    }
    const recomputed = worldComputes(world) ? await propagateChanges(trx, ctx.dialect, world, computedChanges, computeTime(ctx)) : NOTHING_RECOMPUTED;
    await runHooks(ctx, trx, schema, changes);
    for (const other of others.values()) await runHooks(ctx, trx, other.schema, other.changes, true);
    await checkRecomputed(ctx, trx, world, recomputed, [changes, ...[...others.values()].map((o) => o.changes)]);
    return changes.map((c) => c.rowId);
  }).catch(async (error: unknown) => {
    await forgetUploads(ctx, uploaded);
    throw error;
  });
  await removeUnreferenced(ctx, removedFiles);
  return changedIds;
}

/**
 * Deletes records: to the recycle bin (their links stay, hidden while they are there), or for good
 * with `permanent` (live or already in the bin), with every link to or from them. Returns the ids
 * that were deleted.
 */
export async function removeRecords(ctx: ServiceContext, schema: WorksheetSchema, ids: string[], permanent: boolean, source: ChangeSource = ctx.origin ?? API_SOURCE): Promise<string[]> {
  const world = await loadWorld(ctx, schema);
  const children = await childSchemas(ctx, schema);
  const removedFiles: string[] = [];
  const removedIds = await inTransaction(ctx.db, async (trx) => {
    let changes: RecordChange[];
    if (permanent) {
      const removed = await repository.hardDeleteRows(trx, schema.table, ids);
      // `before` is left null for a record that was already in the recycle bin (it was not live).
      changes = removed.map(({ id, wasLive }) => ({ worksheetId: schema.id, rowId: id, kind: 'purge', before: wasLive ? new Map() : null, after: null, source }));
    } else {
      const deleted = await repository.softDeleteRows(trx, schema.table, ids, ctx.now(), ctx.actor.accountId);
      changes = deleted.map((id) => ({ worksheetId: schema.id, rowId: id, kind: 'delete', before: new Map(), after: null, source }));
    }
    const removed = changes.map((c) => c.rowId);
    // Sub-table rows go with their record (to the bin, or for good), found through the links before a purge removes them.
    for (const [field, childIds] of await childRowsOf({ ...ctx, db: trx }, resolvedFields(schema).owned, removed)) {
      if (childIds.length > 0) await removeRecords({ ...ctx, db: trx }, children.get(field.id)!, childIds, permanent, source);
    }
    // Lookups and rollups elsewhere stop counting these records; a purge's links are found before they go.
    const recomputed = worldComputes(world) ? await propagateChanges(trx, ctx.dialect, world, [{ worksheetId: schema.id, rowIds: removed, fields: new Set(), liveness: true }], computeTime(ctx)) : NOTHING_RECOMPUTED;
    if (permanent) {
      await deleteLinksOfWorksheetRecords(trx, schema, removed);
      removedFiles.push(...(await deleteFilesOfRecords(trx, removed)));
    }
    await runHooks(ctx, trx, schema, changes);
    await checkRecomputed(ctx, trx, world, recomputed, [changes]);
    return removed;
  });
  await removeUnreferenced(ctx, removedFiles);
  return removedIds;
}

/**
 * Brings records back from the recycle bin, with the links they had (kept while they were there).
 * A unique value that a live record has taken meanwhile refuses the whole call (100005), restoring
 * nothing. Returns the ids that were in the bin and are live again.
 */
export async function restoreRecords(ctx: ServiceContext, schema: WorksheetSchema, ids: string[], source: ChangeSource = ctx.origin ?? API_SOURCE): Promise<string[]> {
  const world = await loadWorld(ctx, schema);
  const children = await childSchemas(ctx, schema);
  return inTransaction(ctx.db, async (trx) => {
    const restored = await reportingDuplicates(ctx.dialect, schema, () => repository.restoreRows(trx, schema.table, ids, ctx.actor.accountId, ctx.now()));
    for (const [field, childIds] of await childRowsOf({ ...ctx, db: trx }, resolvedFields(schema).owned, restored)) {
      if (childIds.length > 0) await restoreRecords({ ...ctx, db: trx }, children.get(field.id)!, childIds, source);
    }
    const recomputed = worldComputes(world) ? await propagateChanges(trx, ctx.dialect, world, [{ worksheetId: schema.id, rowIds: restored, fields: new Set(), liveness: true }], computeTime(ctx)) : NOTHING_RECOMPUTED;
    const changes = restored.map((id): RecordChange => ({ worksheetId: schema.id, rowId: id, kind: 'restore', before: null, after: new Map(), source }));
    await runHooks(ctx, trx, schema, changes);
    await checkRecomputed(ctx, trx, world, recomputed, [changes]);
    return restored;
  });
}

/** The writer's own calls, handed to the sub-table step so that child records go through this writer too. */
const CHILD_WRITER: ChildWriter = {
  insert: (ctx, schema, rows, refs) => insertRecords(ctx, schema, rows, refs),
  update: (ctx, schema, updates, refs) => updateRecords(ctx, schema, updates, refs),
  remove: (ctx, schema, ids, permanent) => removeRecords(ctx, schema, ids, permanent),
};
