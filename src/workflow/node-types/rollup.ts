import { Type } from '@sinclair/typebox';
import { defineNodeType, type NodeProblem } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences, checkWorksheetFields } from './record-checks.js';

const METHODS = ['count', 'sum', 'avg', 'min', 'max', 'filled', 'not_filled'] as const;
/** The most related records a rollup reads. */
const MOST = 1000;

const RollupSource = Type.Union([
  /** The records an earlier get_multiple node found. */
  Type.Object({ kind: Type.Literal('node'), node: Type.String({ minLength: 1 }) }),
  /** The records one record relates to through its relation field. */
  Type.Object({ kind: Type.Literal('relation'), worksheetId: Type.String({ minLength: 1 }), record: ValueRef, fieldId: Type.String({ minLength: 1 }) }),
]);

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function numbersOf(values: unknown[]): number[] {
  return values.filter((v) => !isEmpty(v)).map(Number).filter(Number.isFinite);
}

function aggregate(method: (typeof METHODS)[number], values: unknown[]): number | null {
  const numbers = numbersOf(values);
  switch (method) {
    case 'count':
      return values.length;
    case 'filled':
      return values.filter((v) => !isEmpty(v)).length;
    case 'not_filled':
      return values.filter(isEmpty).length;
    case 'sum':
      return numbers.reduce((a, b) => a + b, 0);
    case 'avg':
      return numbers.length === 0 ? null : numbers.reduce((a, b) => a + b, 0) / numbers.length;
    case 'min':
      return numbers.length === 0 ? null : Math.min(...numbers);
    case 'max':
      return numbers.length === 0 ? null : Math.max(...numbers);
  }
}

/**
 * Rollup (facts §7.4): count, sum, avg, min, max, filled or not_filled of a field over records:
 * those of an earlier get_multiple node, or those a record relates to through a relation field (at
 * most 1000). Empty values are left out of sum, avg, min and max (avg, min and max of none: null).
 * Output `{value}`, also as `number_fx_id`.
 */
export const rollupNode = defineNodeType({
  type: 'rollup',
  code: 9,
  config: Type.Object({
    method: Type.Union(METHODS.map((m) => Type.Literal(m))),
    source: RollupSource,
    /** The field of those records (its id); not needed to count. */
    fieldId: Type.Optional(Type.String({ minLength: 1 })),
  }),
  exits: ['next'],
  effects: 'none',
  async check(config, at) {
    const problems: NodeProblem[] = [];
    if (config.method !== 'count' && !config.fieldId) problems.push({ path: 'fieldId', message: `${config.method} needs the field to aggregate` });
    if (config.source.kind === 'node') {
      const type = at.earlier.get(config.source.node);
      if (type === undefined) problems.push({ path: 'source.node', message: `refers to the node "${config.source.node}", which does not run before this one` });
      else if (type !== 'get_multiple') problems.push({ path: 'source.node', message: `"${config.source.node}" is a ${type} node; a rollup reads the records of a get_multiple node` });
      return problems;
    }
    const { worksheetId, record, fieldId } = config.source;
    return [...problems, ...(await checkWorksheetFields(at, worksheetId, [{ id: fieldId, path: 'source.fieldId' }])), ...checkReferences([{ ref: record, path: 'source.record' }], at)];
  },
  async run(config, ctx) {
    let records: Array<{ fields: Record<string, unknown> }>;
    if (config.source.kind === 'node') {
      records = (ctx.values.outputs[config.source.node]?.records as Array<{ fields: Record<string, unknown> }> | undefined) ?? [];
    } else {
      const rowId = resolveValue(config.source.record, ctx.values);
      records = typeof rowId === 'string' && rowId !== '' ? await ctx.records.related(config.source.worksheetId, rowId, config.source.fieldId, MOST) : [];
    }
    const values = records.map((r) => (config.fieldId ? r.fields[config.fieldId] : true));
    const value = aggregate(config.method, values);
    return { exit: 'next', output: { value, number_fx_id: value, count: records.length } };
  },
});
