import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences, checkWorksheetFields } from './record-checks.js';

export const FieldAssignment = Type.Object({ fieldId: Type.String({ minLength: 1 }), value: ValueRef });

/**
 * Update record (public type 6, action "update"): writes values, each a value reference, to the
 * record an earlier node found or the trigger's. Through the record service, in the step's
 * transaction: the write and the step commit together.
 */
export const updateRecordNode = defineNodeType({
  type: 'update_record',
  code: 6,
  config: Type.Object({
    worksheetId: Type.String({ minLength: 1 }),
    /** Which record: a `record` (or `field` holding a record id) reference. */
    record: ValueRef,
    fields: Type.Array(FieldAssignment, { minItems: 1 }),
  }),
  exits: ['next'],
  effects: 'database',
  async check(config, at) {
    return [
      ...(await checkWorksheetFields(at, config.worksheetId, config.fields.map((f, i) => ({ id: f.fieldId, path: `fields[${i}].fieldId` })))),
      ...checkReferences([{ ref: config.record, path: 'record' }, ...config.fields.map((f, i) => ({ ref: f.value, path: `fields[${i}].value` }))], at),
    ];
  },
  async run(config, ctx) {
    const rowId = resolveValue(config.record, ctx.values);
    if (typeof rowId !== 'string' || rowId === '') throw new Error('record: the reference holds no record');
    const fields = config.fields.map((f) => ({ id: f.fieldId, value: resolveValue(f.value, ctx.values) }));
    await ctx.records.update(config.worksheetId, rowId, fields as never);
    const record = await ctx.records.get(config.worksheetId, rowId);
    return { exit: 'next', output: { worksheetId: config.worksheetId, rowId, fields: record?.fields ?? {} } };
  },
});
