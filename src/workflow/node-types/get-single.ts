import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences, checkWorksheetFields } from './record-checks.js';

/**
 * Get one record (public type 7): by a record reference, or the first record of a filter (the
 * filter language of lists, with values as literals) in the given order. Leaves by `next` with the
 * record, or with an empty output when none was found (`found: false`).
 */
export const getSingleNode = defineNodeType({
  type: 'get_single',
  code: 7,
  config: Type.Object({
    worksheetId: Type.String({ minLength: 1 }),
    record: Type.Optional(ValueRef),
    filter: Type.Optional(Type.Unknown()),
    sorts: Type.Optional(Type.Array(Type.Object({ field: Type.String(), isAsc: Type.Boolean() }))),
  }),
  exits: ['next'],
  effects: 'none',
  async check(config, at) {
    return [...(await checkWorksheetFields(at, config.worksheetId, [])), ...(config.record ? checkReferences([{ ref: config.record, path: 'record' }], at) : [])];
  },
  async run(config, ctx) {
    const rowId = config.record ? resolveValue(config.record, ctx.values) : null;
    const found = config.record
      ? typeof rowId === 'string' && rowId !== '' ? await ctx.records.get(config.worksheetId, rowId) : null
      : ((await ctx.records.list(config.worksheetId, config.filter ?? null, 1, config.sorts))[0] ?? null);
    return { exit: 'next', output: found ? { found: true, worksheetId: found.worksheetId, rowId: found.rowId, fields: found.fields } : { found: false, fields: {} } };
  },
});
