import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences, checkWorksheetFields } from './record-checks.js';

/** The most records one delete node removes (a get_multiple's limit). */
const MOST = 1000;

/**
 * Delete record (public type 6, action "delete"): moves records to the recycle bin through the
 * record service, in the step's transaction. `record` names one record (a `record` reference, or a
 * field holding a row id) or several (a get_multiple's `rowIds`). A record already gone is skipped.
 * Output `{worksheetId, rowIds: [deleted], count}`.
 */
export const deleteRecordNode = defineNodeType({
  type: 'delete_record',
  code: 6,
  config: Type.Object({
    worksheetId: Type.String({ minLength: 1 }),
    record: ValueRef,
  }),
  exits: ['next'],
  effects: 'database',
  async check(config, at) {
    return [...(await checkWorksheetFields(at, config.worksheetId, [])), ...checkReferences([{ ref: config.record, path: 'record' }], at)];
  },
  async run(config, ctx) {
    const value = resolveValue(config.record, ctx.values);
    const rowIds = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string' && id !== '');
    if (rowIds.length > MOST) throw new Error(`record: ${rowIds.length} records, more than the ${MOST} one node deletes`);
    const deleted: string[] = [];
    for (const rowId of new Set(rowIds)) {
      if (!(await ctx.records.get(config.worksheetId, rowId))) continue;
      await ctx.records.delete(config.worksheetId, rowId);
      deleted.push(rowId);
    }
    return { exit: 'next', output: { worksheetId: config.worksheetId, rowIds: deleted, count: deleted.length } };
  },
});
