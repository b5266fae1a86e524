import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { resolveValue } from '../value-refs.js';
import { checkReferences, checkWorksheetFields } from './record-checks.js';
import { FieldAssignment } from './update-record.js';

/**
 * Add record (public type 6, action "add"; also named `create_record`): creates a record with
 * values, each a value reference, through the record service in the step's transaction (the record
 * and the step commit together). Output: the new record `{worksheetId, rowId, fields}`.
 */
export const addRecordNode = defineNodeType({
  type: 'add_record',
  code: 6,
  config: Type.Object({
    worksheetId: Type.String({ minLength: 1 }),
    fields: Type.Array(FieldAssignment),
  }),
  exits: ['next'],
  effects: 'database',
  async check(config, at) {
    return [
      ...(await checkWorksheetFields(at, config.worksheetId, config.fields.map((f, i) => ({ id: f.fieldId, path: `fields[${i}].fieldId` })))),
      ...checkReferences(config.fields.map((f, i) => ({ ref: f.value, path: `fields[${i}].value` })), at),
    ];
  },
  async run(config, ctx) {
    const fields = config.fields.map((f) => ({ id: f.fieldId, value: resolveValue(f.value, ctx.values) }));
    const rowId = await ctx.records.create(config.worksheetId, fields as never);
    const record = await ctx.records.get(config.worksheetId, rowId);
    return { exit: 'next', output: { worksheetId: config.worksheetId, rowId, fields: record?.fields ?? {} } };
  },
});
