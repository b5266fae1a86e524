import { Type } from '@sinclair/typebox';
import { filterConditions, referencesIn, resolveFilter } from '../filter-refs.js';
import { defineNodeType } from '../node-type.js';
import { checkReferences, checkWorksheetFields } from './record-checks.js';

/** Names a filter may use besides field ids: the system fields (`rowid`, `_createdAt` …), checked when the query compiles. */
const isSystemName = (name: string) => name === 'rowid' || name === 'autoid' || name.startsWith('_');

/**
 * Get multiple records (public type 13): the records of a worksheet passing a filter (the list
 * filter language, whose condition values may be value references: `filter-refs.ts`), in the given
 * order, at most `limit` (1 to 1000, default 100). Output `{count, rowIds, records: [{rowId, fields}]}`.
 */
export const getMultipleNode = defineNodeType({
  type: 'get_multiple',
  code: 13,
  config: Type.Object({
    worksheetId: Type.String({ minLength: 1 }),
    filter: Type.Optional(Type.Unknown()),
    sorts: Type.Optional(Type.Array(Type.Object({ field: Type.String({ minLength: 1 }), isAsc: Type.Boolean() }))),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  }),
  exits: ['next'],
  effects: 'none',
  async check(config, at) {
    const conditions = filterConditions(config.filter, 'filter');
    const named = [
      ...conditions.map((c) => ({ id: String(c.field), path: `${c.path}.field` })),
      ...(config.sorts ?? []).map((s, i) => ({ id: s.field, path: `sorts[${i}].field` })),
    ].filter((f) => !isSystemName(f.id));
    return [
      ...(await checkWorksheetFields(at, config.worksheetId, named)),
      ...checkReferences(conditions.flatMap((c) => referencesIn(c.value).map((ref) => ({ ref, path: `${c.path}.value` }))), at),
    ];
  },
  async run(config, ctx) {
    const filter = config.filter === undefined ? null : resolveFilter(config.filter, ctx.values);
    const found = await ctx.records.list(config.worksheetId, filter, config.limit ?? 100, config.sorts);
    return {
      exit: 'next',
      output: { worksheetId: config.worksheetId, count: found.length, rowIds: found.map((r) => r.rowId), records: found.map((r) => ({ rowId: r.rowId, fields: r.fields })) },
    };
  },
});
