import { sql } from 'kysely';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newObjectId } from '../../shared/ids.js';
import type { ApiProfile } from '../../shared/api-profile.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { Executor } from '../../db/connection.js';
import { inRetriedTransaction, inTransaction } from '../../db/transaction.js';
import { compileFilter, systemFieldName } from '../../query/index.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { linkageOf } from '../../fields/types/relation.js';
import { ItemType, moveItem, placeItem, renameItem, resolveSection } from '../navigation/index.js';
import { withTitleField, defineField, editField, settleFieldSet, type FieldDefinitionInput } from './field-definitions.js';
import * as ddl from './row-table-ddl.js';
import * as repository from './repository.js';
import { makeFieldUnique } from './unique-field.js';
import { attachRelations, detachRelations, detachWorksheet, reconcileEditedRelation } from './relation-fields.js';
import { dependenciesOf, refuseCycles, refuseRemovingInputs, resolveComputedFields, type FilterCheck } from './computed-fields.js';
import { recomputeFields } from './recompute-fields.js';
import { linkOptionSets } from './option-set-fields.js';
import { removeUnreferenced } from '../records/attachments.js';
import { dropRemovedFields, lockIndexingBases, removeWorksheetSources } from '../../knowledge/source-upkeep.js';
import { readIndexKey, rowTableName, uniqueIndexName, type ReadIndexColumns, type WorksheetSchema } from './worksheet-schema.js';
import { changeEpoch } from '../../shared/change-notices.js';

export interface CreateWorksheetInput {
  name: string;
  alias?: string;
  remark?: string;
  sectionId?: string;
  /** Whether changes to its records are logged (default true). */
  recordLogs?: boolean;
  /** Whether it gets an "All" table view (default true). */
  createDefaultView?: boolean;
  fields?: FieldDefinitionInput[];
}

export interface UpdateStructureInput {
  name?: string;
  /** Moves the worksheet to this section of the application's navigation. */
  sectionId?: string;
  alias?: string;
  remark?: string;
  recordLogs?: boolean;
  addFields?: FieldDefinitionInput[];
  editFields?: FieldDefinitionInput[];
  removeFields?: string[];
}

const WORKSHEET_ALIAS = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

function checkWorksheetName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw AppError.invalidParameters('name is required');
  if (name.trim().length > 100) throw AppError.invalidValue('name: at most 100 characters');
  return name.trim();
}

async function checkWorksheetAlias(db: Executor, appId: string, alias: string | undefined, selfId: string | null): Promise<string | undefined> {
  if (alias === undefined || alias === '') return alias;
  if (!WORKSHEET_ALIAS.test(alias)) throw AppError.invalidValue(`alias: "${alias}" must start with a letter and hold only letters, digits and _`);
  const other = await repository.findWorksheetByAlias(db, appId, alias);
  if (other && other.id !== selfId) throw AppError.alreadyExists(`alias: another worksheet of this application is called "${alias}"`);
  return alias;
}

/**
 * Creates a worksheet with its row table, inside the caller's transaction when there is one.
 * Without a field that can be the title, a "Title" text field is added first.
 */
export async function createWorksheet(ctx: ServiceContext, input: CreateWorksheetInput): Promise<{ worksheetId: string }> {
  const name = checkWorksheetName(input.name);
  const id = newObjectId();
  const now = ctx.now();
  let fields = settleFieldSet(withTitleField((input.fields ?? []).map((f, i) => defineField(f, `fields[${i}]`, id, i + 1)), id), null);
  const touched = new Set<string>();
  await inTransaction(ctx.db, async (trx) => {
    const alias = await checkWorksheetAlias(trx, ctx.actor.appId, input.alias, null);
    const sectionId = await resolveSection(trx, ctx.actor.appId, input.sectionId, now, 'sectionId');
    const owner = { id, appId: ctx.actor.appId, name };
    fields = await linkOptionSets(trx, ctx.actor.appId, fields);
    fields = settleFieldSet([...fields, ...(await attachRelations(trx, ctx.dialect, owner, fields, fields, now, touched))], null);
    const due = fields.filter((f) => f.fieldType.computed);
    if (due.length > 0) {
      const others = await repository.schemasOfApp(trx, ctx.actor.appId);
      resolveComputedFields(due, fields, (worksheetId) => (worksheetId === id ? fields : others.find((o) => o.id === worksheetId)?.fields), filterCheck(ctx));
      refuseCycles([...others, withFields(id, fields)]);
    }
    await repository.insertWorksheet(trx, {
      id,
      app_id: ctx.actor.appId,
      name,
      alias: alias ?? '',
      remark: input.remark ?? '',
      record_logs: input.recordLogs === false ? 0 : Math.max(1, now),
      created_at: now,
      updated_at: now,
    });
    await repository.insertFields(trx, fields, now);
    await ddl.createRowTable(trx, ctx.dialect, id, fields);
    if (input.createDefaultView !== false) await repository.insertDefaultView(trx, id, newObjectId(), now);
    await placeItem(trx, ctx.actor.appId, { id, type: ItemType.Worksheet, name, sectionId }, now);
  }).finally(() => {
    forgetAll(ctx, touched);
    ctx.schemas.delete(appLinksKey(ctx.actor.appId));
  });
  return { worksheetId: id };
}

/**
 * The schema of a worksheet of the caller's app, by id or alias: 430022 when there is no such
 * worksheet, 430013 when it belongs to another application.
 */
export async function loadSchema(ctx: ServiceContext, worksheetKey: string): Promise<WorksheetSchema> {
  const cached = (ctx.schemas.get(worksheetKey) ?? ctx.schemas.get(aliasKey(ctx.actor.appId, worksheetKey))) as WorksheetSchema | undefined;
  if (cached && cached.appId === ctx.actor.appId) return cached;
  // Inside a transaction the schema may be the transaction's own, not yet everyone's: not shared.
  if (ctx.db.isTransaction) return readSchema(ctx, worksheetKey);
  // When an entry expires, every request in flight would read the schema again (three statements
  // each); they share one read instead.
  let inFlight = loadsInFlight.get(ctx.schemas);
  if (!inFlight) loadsInFlight.set(ctx.schemas, (inFlight = new Map()));
  const key = aliasKey(ctx.actor.appId, worksheetKey);
  let load = inFlight.get(key);
  if (!load) {
    load = readSchema(ctx, worksheetKey).finally(() => inFlight.delete(key));
    inFlight.set(key, load);
  }
  return load;
}

/** Schema reads in progress, per cache (one per app instance) and by application and key. */
const loadsInFlight = new WeakMap<ServiceContext['schemas'], Map<string, Promise<WorksheetSchema>>>();

async function readSchema(ctx: ServiceContext, worksheetKey: string): Promise<WorksheetSchema> {
  const readSince = changeEpoch();
  let worksheet = await repository.findWorksheet(ctx.db, worksheetKey);
  if (!worksheet) worksheet = await repository.findWorksheetByAlias(ctx.db, ctx.actor.appId, worksheetKey);
  if (!worksheet) throw new AppError(ErrorCode.WorksheetNotFound, 404, `worksheet "${worksheetKey}" does not exist`);
  if (worksheet.app_id !== ctx.actor.appId) {
    throw new AppError(ErrorCode.WorksheetNotInApp, 404, `worksheet "${worksheetKey}" is not in this application`);
  }
  const [fieldRows, readIndexes] = await Promise.all([repository.loadFields(ctx.db, worksheet.id), repository.loadReadIndexes(ctx.db, worksheet.id)]);
  const schema = repository.buildSchema(worksheet, fieldRows, readIndexes);
  ctx.schemas.set(worksheet.id, schema, readSince);
  if (schema.alias) ctx.schemas.set(aliasKey(schema.appId, schema.alias), schema, readSince);
  return schema;
}

/** How many records (live and in the recycle bin) a worksheet holds. */
async function countRecords(db: Executor, worksheetId: string): Promise<number> {
  const row = await sql<{ total: number }>`SELECT COUNT(*) AS total FROM ${sql.table(rowTableName(worksheetId))}`.execute(db);
  return Number(row.rows[0]?.total ?? 0);
}

/** How a rollup's filter is checked at definition: compiled as a list of the related worksheet would compile it. */
function filterCheck(ctx: ServiceContext): FilterCheck {
  return (worksheetId, fields, filter, path) => {
    compileFilter({ schema: withFields(worksheetId, fields), dialect: ctx.dialect, now: ctx.now(), timeZone: ctx.timeZone, selfAccountId: ctx.actor.accountId }, filter, path);
  };
}

/** A worksheet's fields as a schema, for the dependency checks of a change not yet stored. */
function withFields(worksheetId: string, fields: FieldMeta[]): WorksheetSchema {
  const byKey = new Map<string, FieldMeta>();
  for (const field of fields) {
    byKey.set(field.id, field);
    if (field.alias) byKey.set(field.alias, field);
  }
  return { id: worksheetId, appId: '', name: '', alias: '', remark: '', recordLogs: true, recordLogsSince: 1, recordLogPeriods: [], table: rowTableName(worksheetId), fields, byKey, readIndexes: new Set() };
}

/** Aliases are unique per application only, so their cache entries carry the application. */
function aliasKey(appId: string, alias: string): string {
  return `${appId}/${alias}`;
}

function forget(ctx: ServiceContext, schema: WorksheetSchema): void {
  ctx.schemas.delete(schema.id);
  if (schema.alias) ctx.schemas.delete(aliasKey(schema.appId, schema.alias));
  ctx.schemas.delete(appLinksKey(schema.appId));
}

function appLinksKey(appId: string): string {
  return `app-links/${appId}`;
}

/**
 * The relation fields of every worksheet of an application (both sides), cached with the schemas:
 * which worksheets a write may reach through relations (lookups and rollups elsewhere). Dropped by
 * every structure change of the application.
 */
export async function loadAppLinks(ctx: ServiceContext, appId: string): Promise<FieldMeta[]> {
  const cached = ctx.schemas.get(appLinksKey(appId)) as FieldMeta[] | undefined;
  if (cached) return cached;
  const readSince = changeEpoch();
  const links = await repository.linkFieldsOfApp(ctx.db, appId);
  ctx.schemas.set(appLinksKey(appId), links, readSince);
  return links;
}

/** Drops the cached schemas of other worksheets a structure change touched (reverse relation fields). */
function forgetAll(ctx: ServiceContext, worksheetIds: Iterable<string>): void {
  for (const id of worksheetIds) forgetCachedSchema(ctx.schemas, id);
}

export async function listWorksheets(ctx: ServiceContext, ids: string[] | undefined) {
  return repository.listWorksheets(ctx.db, ctx.actor.appId, ids);
}

/**
 * A field as the worksheet schema shows it. The spec profile gives `type` as the code (`"2"`); the
 * public profile as the public name (`"Text"`), with `dataSource`, `desc` and `isDeleted` on every
 * option, as the public service does.
 */
export function presentField(field: FieldMeta, profile: ApiProfile = 'spec') {
  const settings: Record<string, unknown> = {};
  for (const key of ['precision', 'subType', 'max'] as const) if (field.config[key] !== undefined) settings[key] = field.config[key];
  const publicProfile = profile === 'public';
  return {
    id: field.id,
    name: field.name,
    alias: field.alias,
    type: publicProfile ? field.fieldType.name : field.type,
    required: field.required,
    isTitle: field.isTitle,
    isUnique: field.isUnique,
    options: field.options.map((o) => ({
      key: o.key,
      value: o.value,
      index: o.index,
      ...(o.isDeleted || publicProfile ? { isDeleted: o.isDeleted === true } : {}),
      ...(o.color ? { color: o.color } : {}),
      ...(typeof o.score === 'number' ? { score: o.score } : {}),
    })),
    config: field.config,
    description: field.description,
    ...(publicProfile ? { desc: field.description, dataSource: typeof field.config.dataSource === 'string' ? field.config.dataSource : '' } : {}),
    ...(field.fieldType.storage === 'links' ? relationSettings(field) : {}),
    ...(field.config.recomputing === true ? { recomputing: true } : {}),
    ...settings,
  };
}

/** A relation's related worksheet and sides, as the public schema shows them. */
function relationSettings(field: FieldMeta) {
  const linkage = linkageOf(field);
  const counterpart = linkage.side === 'source' ? linkage.reverseField : linkage.linkField;
  const showFields = Array.isArray(field.config.showFields) ? field.config.showFields.filter((f): f is string => typeof f === 'string') : [];
  return { dataSource: linkage.dataSource, relation: { bidirectional: counterpart !== undefined, ...(counterpart ? { reverseField: counterpart } : {}), showFields } };
}

export async function getWorksheet(ctx: ServiceContext, worksheetKey: string) {
  const schema = await loadSchema(ctx, worksheetKey);
  return {
    worksheetId: schema.id,
    name: schema.name,
    alias: schema.alias,
    remark: schema.remark,
    recordLogs: schema.recordLogs,
    fields: schema.fields.map((field) => presentField(field, ctx.profile)),
    views: await repository.viewSummaries(ctx.db, schema.id),
    indexes: await listIndexes(ctx, schema),
  };
}

/** The indexes of a worksheet's rows: unique fields, and the read indexes its lists asked for. */
async function listIndexes(ctx: ServiceContext, schema: WorksheetSchema) {
  const unique = schema.fields.filter((f) => f.isUnique).map((f) => ({ name: uniqueIndexName(schema.id, f.id), fields: [f.id], unique: true }));
  const read = (await repository.loadReadIndexes(ctx.db, schema.id)).map((index) => ({
    name: index.name,
    fields: index.key.map((column) => systemFieldName(column) ?? column),
    ...(index.include.length === 0 ? {} : { include: index.include.map((column) => systemFieldName(column) ?? column) }),
    unique: false,
  }));
  return [...unique, ...read];
}

function findField(schema: WorksheetSchema, fields: FieldMeta[], key: unknown, where: string): FieldMeta {
  const known = typeof key === 'string' ? schema.byKey.get(key) : undefined;
  const current = known ? fields.find((f) => f.id === known.id) : undefined;
  if (!current) throw AppError.invalidValue(`${where}: no field "${String(key)}" in this worksheet`);
  return current;
}

/**
 * Changes name, alias, remark and fields in one transaction, with the DDL: removed fields drop
 * their column, added ones add it, edits that change uniqueness create or drop the unique index.
 */
export async function updateStructure(ctx: ServiceContext, worksheetKey: string, input: UpdateStructureInput): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  const now = ctx.now();
  let fields = schema.fields.map((f) => ({ ...f }));
  // A field named twice (by id and by alias, say) is removed once.
  const removed = [...new Map((input.removeFields ?? []).map((key, i) => findField(schema, fields, key, `removeFields[${i}]`)).map((f) => [f.id, f])).values()];
  const removedIds = new Set(removed.map((f) => f.id));
  fields = fields.filter((f) => !removedIds.has(f.id));
  // Fields this change names as the title; more than one is a contradiction, not a choice.
  const titleRequests: FieldMeta[] = [];
  const editedIds = new Set<string>();
  (input.editFields ?? []).forEach((change, i) => {
    const where = `editFields[${i}]`;
    if (!change.id) throw AppError.invalidParameters(`${where}.id is required`);
    const before = findField(schema, fields, change.id, `${where}.id`);
    const after = editField(before, change, where);
    if (change.isTitle === true) titleRequests.push(after);
    editedIds.add(after.id);
    fields = fields.map((f) => (f.id === after.id ? after : f));
  });
  let position = Math.max(0, ...fields.map((f) => f.position));
  const added = (input.addFields ?? []).map((f, i) => defineField(f, `addFields[${i}]`, schema.id, ++position));
  titleRequests.push(...added.filter((f) => f.isTitle));
  if (titleRequests.length > 1) {
    throw AppError.invalidValue(`exactly one field can be the title; this change marks ${titleRequests.map((f) => `"${f.name}"`).join(', ')}`);
  }
  fields = settleFieldSet([...fields, ...added], titleRequests[0]?.id ?? null);
  const addedIds = new Set(added.map((f) => f.id));

  await ctx.indexes.settle(schema.id);
  const touched = new Set<string>();
  let removedFiles: string[] = [];
  let background: { appId: string; worksheetId: string; fieldIds: string[] } | null = null;
  await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    touched.clear();
    // A retried attempt starts from the fields as they were planned, not as the aborted attempt left them.
    const planned = await linkOptionSets(trx, schema.appId, fields.map((f) => ({ ...f })));
    const owner = { id: schema.id, appId: schema.appId, name: input.name === undefined ? schema.name : checkWorksheetName(input.name) };
    const changes: Parameters<typeof repository.updateWorksheet>[2] = { updated_at: now };
    if (input.name !== undefined) changes.name = checkWorksheetName(input.name);
    if (input.alias !== undefined) changes.alias = (await checkWorksheetAlias(trx, schema.appId, input.alias, schema.id)) ?? '';
    if (input.remark !== undefined) changes.remark = input.remark;
    // Switched on again, the log runs from now: changes made while it was off are not in it. The
    // periods it was on are kept: a record made in one of them has a create entry.
    // (From the next millisecond: a record made in this one may have been made before the switch.)
    if (input.recordLogs === true && !schema.recordLogs) changes.record_logs = now + 1;
    if (input.recordLogs === false && schema.recordLogs) {
      changes.record_logs = 0;
      changes.record_log_periods = JSON.stringify([...schema.recordLogPeriods, [schema.recordLogsSince, now]]);
    }
    if (removed.length > 0) await lockIndexingBases(trx, [schema.id]);
    await repository.updateWorksheet(trx, schema.id, changes);
    if (changes.name) await renameItem(trx, schema.id, changes.name);
    if (input.sectionId) await moveItem(trx, schema.appId, schema.id, await resolveSection(trx, schema.appId, input.sectionId, now, 'sectionId'));
    const covering = (await repository.loadReadIndexes(trx, schema.id)).filter((index) => [...index.key, ...index.include].some((column) => removedIds.has(column)));
    for (const index of covering) await ddl.dropReadIndex(trx, index.name);
    await repository.deleteReadIndexes(trx, covering.map((index) => index.name));
    // Removing one side of a self relation may take the other (its reverse) with it.
    const alsoRemoved = await detachRelations(trx, owner, removed, touched);
    const gone = new Set([...removedIds, ...alsoRemoved]);
    if (gone.size > 0) {
      const others = (await repository.schemasOfApp(trx, schema.appId)).filter((o) => o.id !== schema.id);
      const what = removed.length === 1 ? `field "${removed[0].name}"` : `fields ${removed.map((f) => `"${f.name}"`).join(', ')}`;
      refuseRemovingInputs([...others, withFields(schema.id, planned.filter((f) => !gone.has(f.id)))], gone, what);
    }
    removedFiles = await repository.deleteFileRows(trx, schema.id, removed.map((f) => f.id));
    for (const field of removed) await ddl.dropColumn(trx, schema.id, field);
    await repository.deleteFields(trx, [...gone]);
    let kept = planned.filter((f) => !gone.has(f.id));
    const newOwn: FieldMeta[] = [];
    for (const field of kept) {
      const before = schema.fields.find((f) => f.id === field.id);
      if (!before) continue;
      if (before.fieldType.storage === 'links') {
        const { addOwn, removeOwn } = await reconcileEditedRelation(trx, owner, before, field, [...kept, ...newOwn], now, touched);
        if (addOwn) newOwn.push(addOwn);
        if (removeOwn) {
          await repository.deleteFields(trx, [removeOwn]);
          gone.add(removeOwn);
        }
      }
    }
    kept = kept.filter((f) => !gone.has(f.id));
    for (const field of kept) {
      const before = schema.fields.find((f) => f.id === field.id);
      if (before) {
        if (before.isUnique && !field.isUnique) await ddl.dropUniqueIndex(trx, schema.id, field.id);
        if (!before.isUnique && field.isUnique) await makeFieldUnique(trx, ctx.dialect, schema.id, field);
        await repository.replaceField(trx, field);
      }
    }
    const newFields = kept.filter((f) => addedIds.has(f.id));
    newOwn.push(...(await attachRelations(trx, ctx.dialect, owner, newFields, [...kept, ...newOwn], now, touched)));
    const final = [...kept, ...newOwn];
    settleFieldSet(final, null);
    const due = final.filter((f) => f.fieldType.computed && (addedIds.has(f.id) || editedIds.has(f.id)));
    if (due.length > 0) {
      const others = (await repository.schemasOfApp(trx, schema.appId)).filter((o) => o.id !== schema.id);
      resolveComputedFields(due, final, (worksheetId) => (worksheetId === schema.id ? final : others.find((o) => o.id === worksheetId)?.fields), filterCheck(ctx));
      refuseCycles([...others, withFields(schema.id, final)]);
      // An edited computed field was stored above with its old references: store the resolved ones.
      for (const field of due) if (editedIds.has(field.id)) await repository.replaceField(trx, field);
    }
    await repository.insertFields(trx, [...newFields, ...newOwn], now);
    // Knowledge sources of a removed field (here or, through a relation, in another worksheet) drop it.
    await dropRemovedFields(trx, ctx.dialect, [schema.id, ...touched], (ids) => repository.fieldIdsOf(trx, ids), now);
    for (const field of newFields) await ddl.addColumn(trx, ctx.dialect, schema.id, field);
    // New and changed computed fields, and those reading an edited field, are computed for every record now.
    const recompute = new Set([...due.map((f) => f.id), ...final.filter((f) => dependenciesOf(f).some((id) => editedIds.has(id))).map((f) => f.id)]);
    background = null;
    if (recompute.size > 0) {
      if ((await countRecords(trx, schema.id)) <= ctx.recompute.inlineMaxRows) {
        await recomputeFields(trx, ctx.dialect, schema.appId, schema.id, recompute, { now, timeZone: ctx.timeZone });
      } else {
        // Too many records for this transaction: the fields are marked and computed in the background after it commits.
        for (const id of recompute) {
          const field = [...kept, ...newOwn].find((f) => f.id === id);
          if (field) await repository.replaceField(trx, { ...field, config: { ...field.config, recomputing: true } });
        }
        background = { appId: schema.appId, worksheetId: schema.id, fieldIds: [...recompute] };
      }
    }
  }).finally(() => {
    forget(ctx, schema);
    forgetAll(ctx, touched);
  });
  if (background) ctx.recompute.start(background);
  await removeUnreferenced(ctx, removedFiles);
}

/** Deletes a worksheet, its fields and all its rows (the table is dropped). */
export async function deleteWorksheet(ctx: ServiceContext, worksheetKey: string): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  await ctx.indexes.settle(schema.id);
  const touched = new Set<string>();
  let removedFiles: string[] = [];
  await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    touched.clear();
    const schemas = await repository.schemasOfApp(trx, schema.appId);
    const others = schemas.filter((o) => o.id !== schema.id);
    const pointing = others.flatMap((o) => o.fields).filter((f) => f.fieldType.storage === 'links' && linkageOf(f).dataSource === schema.id);
    refuseRemovingInputs(others, new Set([...schema.fields.map((f) => f.id), ...pointing.map((f) => f.id)]), `worksheet "${schema.name}"`);
    // Knowledge bases first: their row locks before the DDL, as indexing jobs take them before reading records.
    await removeWorksheetSources(trx, ctx.dialect, schema.id);
    await detachWorksheet(trx, schema.id, schema.appId, touched);
    await dropRemovedFields(trx, ctx.dialect, [...touched], (ids) => repository.fieldIdsOf(trx, ids), ctx.now());
    removedFiles = await repository.deleteFileRows(trx, schema.id);
    await repository.deleteWorksheetRow(trx, schema.id);
    await ddl.dropRowTable(trx, schema.id);
  }).finally(() => {
    forget(ctx, schema);
    forgetAll(ctx, touched);
  });
  await removeUnreferenced(ctx, removedFiles);
}

/**
 * Deletes every worksheet of an application (used when the application is deleted); returns the
 * storage keys of its files, for the caller to remove from the store once its transaction commits.
 */
export async function deleteAllWorksheets(ctx: ServiceContext, db: Executor, appId: string): Promise<string[]> {
  const removedFiles: string[] = [];
  ctx.schemas.delete(appLinksKey(appId));
  for (const id of await repository.worksheetIdsOfApp(db, appId)) {
    await detachWorksheet(db, id, appId, new Set());
    removedFiles.push(...(await repository.deleteFileRows(db, id)));
    await repository.deleteWorksheetRow(db, id);
    await ddl.dropRowTable(db, id);
    ctx.schemas.delete(id);
  }
  return removedFiles;
}

/** Read indexes a worksheet may get from what its lists ask for; each one slows its writes a little. */
export const MAX_READ_INDEXES = 16;

/**
 * Asks for a read index on these columns unless it is known to exist (or the worksheet has as many
 * as it may get). Never runs DDL itself: the read that asks is served without the index, and the
 * index builder makes it in the background.
 */
export function requestReadIndex(ctx: ServiceContext, schema: WorksheetSchema, columns: ReadIndexColumns): void {
  if (columns.key.length === 0 || schema.readIndexes.has(readIndexKey(columns)) || schema.readIndexes.size >= MAX_READ_INDEXES) return;
  ctx.indexes.request({ worksheetId: schema.id, columns });
}

/** Drops a worksheet's cached schema (under its id and its alias), e.g. after an index was built. */
export function forgetCachedSchema(cache: ServiceContext['schemas'], worksheetId: string): void {
  const cached = cache.get(worksheetId) as WorksheetSchema | undefined;
  cache.delete(worksheetId);
  if (cached?.alias) cache.delete(aliasKey(cached.appId, cached.alias));
}
