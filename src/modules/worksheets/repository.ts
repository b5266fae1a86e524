import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { fieldTypeOf } from '../../fields/registry.js';
import { readIndexKey, rowTableName, type ReadIndexColumns, type WorksheetSchema } from './worksheet-schema.js';

type WorksheetRow = Selectable<MetaSchema['worksheets']>;
type FieldRow = Selectable<MetaSchema['fields']>;

export function fieldFromRow(row: FieldRow): FieldMeta {
  return {
    id: row.id,
    worksheetId: row.worksheet_id,
    name: row.name,
    alias: row.alias,
    type: row.type,
    required: row.required === 1,
    isTitle: row.is_title === 1,
    isUnique: row.is_unique === 1,
    position: row.position,
    options: JSON.parse(row.options),
    config: JSON.parse(row.config),
    description: row.description,
    fieldType: fieldTypeOf(row.type),
  };
}

/** The stored columns of a field, named one by one: `fieldType` and anything else in memory stay out. */
function fieldToRow(field: FieldMeta, createdAt: number): FieldRow {
  return {
    id: field.id,
    worksheet_id: field.worksheetId,
    name: field.name,
    alias: field.alias,
    type: field.type,
    required: field.required ? 1 : 0,
    is_title: field.isTitle ? 1 : 0,
    is_unique: field.isUnique ? 1 : 0,
    // Read indexes are kept in row_indexes (migration 0002); this 0001 column is no longer used.
    indexed: 0,
    position: field.position,
    options: JSON.stringify(field.options),
    config: JSON.stringify(field.config),
    description: field.description,
    created_at: createdAt,
  };
}

export function buildSchema(worksheet: WorksheetRow, fieldRows: FieldRow[], readIndexColumns: ReadIndexColumns[]): WorksheetSchema {
  const fields = fieldRows.map(fieldFromRow).sort((a, b) => a.position - b.position);
  const byKey = new Map<string, FieldMeta>();
  for (const field of fields) {
    byKey.set(field.id, field);
    if (field.alias) byKey.set(field.alias, field);
  }
  return {
    id: worksheet.id,
    appId: worksheet.app_id,
    name: worksheet.name,
    alias: worksheet.alias,
    remark: worksheet.remark,
    recordLogs: Number(worksheet.record_logs) !== 0,
    recordLogsSince: Number(worksheet.record_logs),
    recordLogPeriods: JSON.parse(worksheet.record_log_periods) as Array<[number, number]>,
    table: rowTableName(worksheet.id),
    fields,
    byKey,
    readIndexes: new Set(readIndexColumns.map(readIndexKey)),
  };
}

export async function findWorksheet(db: Executor, worksheetId: string): Promise<WorksheetRow | undefined> {
  return db.selectFrom('worksheets').selectAll().where('id', '=', worksheetId).executeTakeFirst();
}

export async function findWorksheetByAlias(db: Executor, appId: string, alias: string): Promise<WorksheetRow | undefined> {
  return db.selectFrom('worksheets').selectAll().where('app_id', '=', appId).where('alias', '=', alias).executeTakeFirst();
}

export async function loadFields(db: Executor, worksheetId: string): Promise<FieldRow[]> {
  return db.selectFrom('fields').selectAll().where('worksheet_id', '=', worksheetId).orderBy('position').execute();
}

export async function listWorksheets(db: Executor, appId: string, ids: string[] | undefined) {
  let query = db.selectFrom('worksheets').select(['id', 'name', 'remark']).where('app_id', '=', appId);
  if (ids && ids.length > 0) query = query.where('id', 'in', ids);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function insertWorksheet(db: Executor, row: Insertable<MetaSchema['worksheets']>): Promise<void> {
  await db.insertInto('worksheets').values(row).execute();
}

export async function updateWorksheet(db: Executor, id: string, changes: Partial<Pick<WorksheetRow, 'name' | 'alias' | 'remark' | 'record_logs' | 'record_log_periods' | 'updated_at'>>): Promise<void> {
  await db.updateTable('worksheets').set(changes).where('id', '=', id).execute();
}

/** Deletes the `files` rows of a worksheet's records (or of some of its fields); returns their storage keys. */
export async function deleteFileRows(db: Executor, worksheetId: string, fieldIds?: string[]): Promise<string[]> {
  if (fieldIds?.length === 0) return [];
  let query = db.deleteFrom('files').where('worksheet_id', '=', worksheetId);
  if (fieldIds) query = query.where('field_id', 'in', fieldIds);
  return (await query.returning('storage_key').execute()).map((row) => row.storage_key);
}

export async function deleteWorksheetRow(db: Executor, id: string): Promise<void> {
  const fieldIds = (await db.selectFrom('fields').select('id').where('worksheet_id', '=', id).execute()).map((f) => f.id);
  await deleteCounters(db, fieldIds);
  await db.deleteFrom('fields').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('row_counts').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('row_indexes').where('worksheet_id', '=', id).execute();
  // Found through the records' ids (the log's index), before the row table is dropped.
  await sql`DELETE FROM record_logs WHERE row_id IN (SELECT id FROM ${sql.table(rowTableName(id))})`.execute(db);
  await db.deleteFrom('discussions').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('charts').where('worksheet_id', '=', id).execute();
  // The worksheet's draft boxes, whoever's they are (records/drafts/).
  await db.deleteFrom('record_drafts').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('record_draft_boxes').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('business_rules').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('views').where('worksheet_id', '=', id).execute();
  await db.deleteFrom('items').where('id', '=', id).execute();
  await db.deleteFrom('worksheets').where('id', '=', id).execute();
}

export async function insertFields(db: Executor, fields: FieldMeta[], createdAt: number): Promise<void> {
  if (fields.length === 0) return;
  await db.insertInto('fields').values(fields.map((f) => fieldToRow(f, createdAt))).execute();
}

export async function replaceField(db: Executor, field: FieldMeta): Promise<void> {
  const { created_at: _createdAt, id: _id, ...changes } = fieldToRow(field, 0);
  await db.updateTable('fields').set(changes).where('id', '=', field.id).execute();
}

/** The auto-number counters of fields: the field's own, and one per period of a repeating sequence (`<field>:<period>`). */
async function deleteCounters(db: Executor, fieldIds: string[]): Promise<void> {
  if (fieldIds.length === 0) return;
  await db
    .deleteFrom('auto_number_counters')
    .where((eb) => eb.or([eb('field_id', 'in', fieldIds), ...fieldIds.map((id) => eb('field_id', 'like', `${id}:%`))]))
    .execute();
}

/** The ids of the fields these worksheets have. */
export async function fieldIdsOf(db: Executor, worksheetIds: string[]): Promise<Set<string>> {
  if (worksheetIds.length === 0) return new Set();
  const rows = await db.selectFrom('fields').select('id').where('worksheet_id', 'in', worksheetIds).execute();
  return new Set(rows.map((row) => row.id));
}

export async function deleteFields(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteCounters(db, ids);
  await db.deleteFrom('fields').where('id', 'in', ids).execute();
}

/** Every read index of a worksheet, oldest first. */
export async function loadReadIndexes(db: Executor, worksheetId: string): Promise<Array<{ name: string } & ReadIndexColumns>> {
  const rows = await db
    .selectFrom('row_indexes')
    .select(['name', 'columns', 'included'])
    .where('worksheet_id', '=', worksheetId)
    .orderBy('created_at')
    .orderBy('name')
    .execute();
  return rows.map((r) => ({ name: r.name, key: JSON.parse(r.columns) as string[], include: JSON.parse(r.included) as string[] }));
}

/** Records a built read index; a second process recording the same one changes nothing. */
export async function insertReadIndex(db: Executor, row: { name: string; worksheetId: string; columns: ReadIndexColumns; createdAt: number }): Promise<void> {
  await db
    .insertInto('row_indexes')
    .values({ name: row.name, worksheet_id: row.worksheetId, columns: JSON.stringify(row.columns.key), included: JSON.stringify(row.columns.include), created_at: row.createdAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function deleteReadIndexes(db: Executor, names: string[]): Promise<void> {
  if (names.length > 0) await db.deleteFrom('row_indexes').where('name', 'in', names).execute();
}

export async function worksheetIdsOfApp(db: Executor, appId: string): Promise<string[]> {
  const rows = await db.selectFrom('worksheets').select('id').where('app_id', '=', appId).execute();
  return rows.map((r) => r.id);
}

/**
 * Every field of an application whose values live in link tables (relations), on any of its
 * worksheets: what a permanent deletion, a worksheet deletion or a field removal must also clean up
 * on the other side. Metadata-sized, and read only by those rare operations.
 */
export async function linkFieldsOfApp(db: Executor, appId: string): Promise<FieldMeta[]> {
  return (await fieldRowsOfApp(db, appId)).map(fieldFromRow).filter((field) => field.fieldType.storage === 'links');
}

/** The rows of every field of every worksheet of an application (metadata). */
async function fieldRowsOfApp(db: Executor, appId: string): Promise<FieldRow[]> {
  return db.selectFrom('fields').selectAll('fields').innerJoin('worksheets', 'worksheets.id', 'fields.worksheet_id').where('worksheets.app_id', '=', appId).execute();
}

/** Every worksheet of an application with its fields, as schemas (read inside a structure change's transaction). */
export async function schemasOfApp(db: Executor, appId: string): Promise<WorksheetSchema[]> {
  const worksheets = await db.selectFrom('worksheets').selectAll().where('app_id', '=', appId).execute();
  const fields = await fieldRowsOfApp(db, appId);
  return worksheets.map((worksheet) => buildSchema(worksheet, fields.filter((f) => f.worksheet_id === worksheet.id), []));
}

export async function findField(db: Executor, id: string): Promise<FieldMeta | undefined> {
  const row = await db.selectFrom('fields').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fieldFromRow(row);
}

/** A worksheet's views as its schema lists them, in their order (`modules/views/` keeps the rest). */
export async function viewSummaries(db: Executor, worksheetId: string): Promise<Array<{ id: string; name: string; type: number }>> {
  const rows = await db.selectFrom('views').select(['id', 'name', 'type']).where('worksheet_id', '=', worksheetId).orderBy('position').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, name: row.name, type: Number(row.type) }));
}

/**
 * The view a new worksheet gets unless asked not to: "All", a table of every record. Its settings
 * are empty; `modules/views/` reads missing settings as their defaults.
 */
export async function insertDefaultView(db: Executor, worksheetId: string, viewId: string, now: number): Promise<void> {
  await db.insertInto('views').values({ id: viewId, worksheet_id: worksheetId, name: 'All', type: 0, position: 1, definition: '{}', created_at: now, updated_at: now }).execute();
}
