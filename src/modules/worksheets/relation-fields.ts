import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { fieldTypeOf } from '../../fields/registry.js';
import { linkageOf, wantsReverse } from '../../fields/types/relation.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import { createLinkTable, dropLinkTable } from './link-table-ddl.js';
import { createRowTable } from './row-table-ddl.js';
import { defineField, settleFieldSet, withTitleField, type FieldDefinitionInput } from './field-definitions.js';
import * as repository from './repository.js';

/**
 * The structure side of relations, run inside the transaction of the structure change: a new
 * relation gets its link table and, when two-way, its reverse field on the related worksheet; a
 * removed one takes its link table or its reverse with it. Other worksheets whose fields change are
 * returned, so that their cached schemas are dropped.
 */

/** The worksheet a structure change works on. */
export interface OwnerWorksheet {
  id: string;
  appId: string;
  name: string;
}

const SELF_RELATION = 'selfRelation';

/** A relation's `dataSource` (id, alias or `selfRelation`) as a worksheet id of the same application. */
async function resolveDataSource(trx: Executor, owner: OwnerWorksheet, field: FieldMeta): Promise<string> {
  const dataSource = String(field.config.dataSource).trim();
  if (dataSource === SELF_RELATION || dataSource === owner.id) return owner.id;
  const byId = await repository.findWorksheet(trx, dataSource);
  const worksheet = byId?.app_id === owner.appId ? byId : await repository.findWorksheetByAlias(trx, owner.appId, dataSource);
  if (!worksheet) throw AppError.invalidValue(`field "${field.name}": dataSource: no worksheet "${dataSource.slice(0, 80)}" in this application`);
  return worksheet.id;
}

/** A field name not yet taken among `taken`: the wanted one, else with the relation's name, else numbered. */
function freeName(taken: Set<string>, wanted: string, qualifier: string): string {
  if (!taken.has(wanted)) return wanted;
  const qualified = `${wanted} (${qualifier})`.slice(0, 100);
  if (!taken.has(qualified)) return qualified;
  for (let n = 2; ; n++) if (!taken.has(`${qualified.slice(0, 95)} ${n}`)) return `${qualified.slice(0, 95)} ${n}`;
}

/** The reverse side of a two-way relation: on the related worksheet, named after the worksheet it comes from, several records. */
function reverseFieldOf(forward: FieldMeta, owner: OwnerWorksheet, targetFields: FieldMeta[]): FieldMeta {
  const name = freeName(new Set(targetFields.map((f) => f.name)), owner.name, forward.name);
  return {
    id: newObjectId(),
    worksheetId: String(forward.config.dataSource),
    name,
    alias: '',
    type: forward.type,
    required: false,
    isTitle: false,
    isUnique: false,
    position: Math.max(0, ...targetFields.map((f) => f.position)) + 1,
    options: [],
    config: { dataSource: owner.id, subType: 2, bidirectional: true, linkField: forward.id, side: 'target' },
    description: `Records of "${owner.name}" that relate to this one through "${forward.name}"`,
    fieldType: fieldTypeOf(forward.type),
  };
}

/**
 * Gives a two-way relation its reverse field. On another worksheet it is written there now; on the
 * same worksheet (a self relation) it is returned, to be stored with the change's own fields.
 */
async function addReverse(trx: Executor, owner: OwnerWorksheet, forward: FieldMeta, ownFields: FieldMeta[], now: number, touched: Set<string>): Promise<FieldMeta | null> {
  const targetId = String(forward.config.dataSource);
  const self = targetId === owner.id;
  const targetFields = self ? ownFields : (await repository.loadFields(trx, targetId)).map(repository.fieldFromRow);
  const reverse = reverseFieldOf(forward, owner, targetFields);
  forward.config = { ...forward.config, bidirectional: true, reverseField: reverse.id };
  if (self) return reverse;
  await repository.insertFields(trx, [reverse], now);
  touched.add(targetId);
  return null;
}

/**
 * The worksheet a sub-table defined with `config.fields` keeps its child records in: created in the
 * same transaction, named after the record's worksheet and the field, and not placed in the
 * application's navigation. Its fields hold values (relations and computed fields are defined on it
 * afterwards, once it exists).
 */
async function createChildWorksheet(trx: Executor, dialect: SqlDialect, owner: OwnerWorksheet, field: FieldMeta, now: number): Promise<string> {
  const id = newObjectId();
  const where = `field "${field.name}" config.fields`;
  let fields = (field.config.fields as FieldDefinitionInput[]).map((definition, i) => defineField(definition ?? {}, `${where}[${i}]`, id, i + 1));
  for (const child of fields) {
    if (child.fieldType.storage !== 'column' || child.fieldType.computed) {
      throw AppError.invalidValue(`${where}: "${child.name}" is ${child.fieldType.name}; a sub-table is created with fields that hold values (add relations and computed fields to its worksheet afterwards)`);
    }
  }
  fields = settleFieldSet(withTitleField(fields, id), null);
  await repository.insertWorksheet(trx, { id, app_id: owner.appId, name: `${owner.name} - ${field.name}`.slice(0, 100), alias: '', remark: `The rows of sub-table "${field.name}" of "${owner.name}"`, created_at: now, updated_at: now });
  await repository.insertFields(trx, fields, now);
  await createRowTable(trx, dialect, id, fields);
  return id;
}

/**
 * Completes new relation fields (their configs are changed in place): the related worksheet is
 * resolved to its id, the link table created, and a two-way relation's reverse field added.
 * Returns the reverse fields that belong to the owner worksheet itself (self relations).
 */
export async function attachRelations(trx: Executor, dialect: SqlDialect, owner: OwnerWorksheet, added: FieldMeta[], ownFields: FieldMeta[], now: number, touched: Set<string>): Promise<FieldMeta[]> {
  const ownReverse: FieldMeta[] = [];
  for (const field of added) {
    if (field.fieldType.pointsAt === 'record') field.config = { ...field.config, dataSource: await resolveDataSource(trx, owner, field) };
    if (field.fieldType.storage !== 'links') continue;
    const makesChild = field.fieldType.owns === true && Array.isArray(field.config.fields) && !field.config.dataSource;
    const dataSource = makesChild ? await createChildWorksheet(trx, dialect, owner, field, now) : await resolveDataSource(trx, owner, field);
    const { bidirectional: _asked, relation: _relation, fields: _childFields, ...config } = field.config;
    field.config = { ...config, dataSource, linkField: field.id, side: 'source', bidirectional: false, ...(makesChild ? { childWorksheet: true } : {}) };
    await createLinkTable(trx, dialect, field.id);
    // A sub-table's children belong to it: no reverse field relates them back.
    if (!field.fieldType.owns && wantsReverse({ ...field.config, bidirectional: _asked, relation: _relation })) {
      const reverse = await addReverse(trx, owner, field, [...ownFields, ...ownReverse], now, touched);
      if (reverse) ownReverse.push(reverse);
    }
  }
  return ownReverse;
}

/**
 * An edit of a relation that turns it two-way or one-way: adds or removes the reverse field. The
 * reverse side itself cannot be made one-way (remove it instead). Returns a reverse field that
 * belongs to the owner worksheet (self relation) to be stored with the change.
 */
export async function reconcileEditedRelation(trx: Executor, owner: OwnerWorksheet, before: FieldMeta, after: FieldMeta, ownFields: FieldMeta[], now: number, touched: Set<string>): Promise<{ addOwn: FieldMeta | null; removeOwn: string | null }> {
  const linkage = linkageOf(before);
  const wanted = wantsReverse(after.config);
  const had = linkage.reverseField !== undefined;
  const { relation: _relation, ...config } = after.config;
  if (linkage.side === 'target') {
    after.config = { ...config, bidirectional: true };
    return { addOwn: null, removeOwn: null };
  }
  after.config = { ...config, bidirectional: had };
  if (wanted === had) return { addOwn: null, removeOwn: null };
  if (wanted) return { addOwn: await addReverse(trx, owner, after, ownFields, now, touched), removeOwn: null };
  const reverseId = linkage.reverseField!;
  const { reverseField: _gone, ...oneWay } = after.config;
  after.config = { ...oneWay, bidirectional: false };
  if (linkage.dataSource === owner.id) return { addOwn: null, removeOwn: reverseId };
  await repository.deleteFields(trx, [reverseId]);
  touched.add(linkage.dataSource);
  return { addOwn: null, removeOwn: null };
}

/**
 * Removed relation fields: a forward one drops its link table and its reverse field (wherever it
 * is); a reverse one leaves its forward field one-way. Fields removed in the same change are left
 * to it. Returns the ids of reverse fields of the owner worksheet that must go too.
 */
export async function detachRelations(trx: Executor, owner: OwnerWorksheet, removed: FieldMeta[], touched: Set<string>): Promise<string[]> {
  const removedIds = new Set(removed.map((f) => f.id));
  const alsoOwn: string[] = [];
  for (const field of removed) {
    if (field.fieldType.storage !== 'links') continue;
    const linkage = linkageOf(field);
    if (linkage.side === 'source') {
      await dropLinkTable(trx, field.id);
      const reverseId = linkage.reverseField;
      if (!reverseId || removedIds.has(reverseId)) continue;
      if (linkage.dataSource === owner.id) alsoOwn.push(reverseId);
      else {
        await repository.deleteFields(trx, [reverseId]);
        touched.add(linkage.dataSource);
      }
      continue;
    }
    if (removedIds.has(linkage.linkField)) continue;
    const forward = await repository.findField(trx, linkage.linkField);
    if (!forward) continue;
    const { reverseField: _gone, ...config } = forward.config;
    await repository.replaceField(trx, { ...forward, config: { ...config, bidirectional: false } });
    if (forward.worksheetId !== owner.id) touched.add(forward.worksheetId);
  }
  return alsoOwn;
}

/**
 * Before a worksheet is deleted: the link tables of its relations are dropped, and every relation
 * field of another worksheet that relates to it (or is the reverse of one of its relations) is
 * removed, since what it pointed at is gone.
 */
export async function detachWorksheet(trx: Executor, worksheetId: string, appId: string, touched: Set<string>): Promise<void> {
  for (const field of await repository.linkFieldsOfApp(trx, appId)) {
    const linkage = linkageOf(field);
    const onDeleted = field.worksheetId === worksheetId;
    const pointsAtDeleted = linkage.dataSource === worksheetId;
    if (!onDeleted && !pointsAtDeleted) continue;
    if (linkage.side === 'source') await dropLinkTable(trx, field.id);
    if (!onDeleted) {
      await repository.deleteFields(trx, [field.id]);
      touched.add(field.worksheetId);
    }
  }
}
