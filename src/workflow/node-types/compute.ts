import { Type, type Static } from '@sinclair/typebox';
import { DateTime, type DurationLikeObject } from 'luxon';
import { compileFormula, dateDifference } from '../../fields/computed/formula-expression.js';
import { instantOf, isoOf } from '../instants.js';
import { defineNodeType, type NodeContext, type NodeProblem } from '../node-type.js';
import { PLACEHOLDER, resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

const NumberMode = Type.Object({
  mode: Type.Literal('number'),
  /** A formula of the formula fields' language (`docs/api.md`), its values `$alias-fieldId$` placeholders. */
  expression: Type.String({ minLength: 1, maxLength: 4000 }),
  precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
});
const DateDiffMode = Type.Object({
  mode: Type.Literal('dateDiff'),
  start: ValueRef,
  end: ValueRef,
  unit: Type.Optional(Type.Union(['minute', 'hour', 'day', 'month', 'year'].map((u) => Type.Literal(u)))),
});
const DateOffsetMode = Type.Object({
  mode: Type.Literal('dateOffset'),
  date: ValueRef,
  /** Signed amounts with a unit, in order: `+3d`, `-1M+2h` (y years, M months, w weeks, d days, h hours, m minutes). */
  offsetExpression: Type.String({ pattern: '^([+-]\\d{1,6}[yMwdhm])+$' }),
});
type NumberMode = Static<typeof NumberMode>;

const UNITS: Record<string, keyof DurationLikeObject> = { y: 'years', M: 'months', w: 'weeks', d: 'days', h: 'hours', m: 'minutes' };

/** The placeholders of an expression as formula variables (`$in0$` …, in order of first appearance) and the expression rewritten with them. */
function variablesOf(expression: string): { text: string; placeholders: Map<string, string> } {
  const placeholders = new Map<string, string>();
  const text = expression.replace(PLACEHOLDER, (whole: string) => {
    if (!placeholders.has(whole)) placeholders.set(whole, `in${placeholders.size}`);
    return `$${placeholders.get(whole)}$`;
  });
  return { text, placeholders };
}

/** A value as formulas take it: a number, a numeric text, a date (epoch ms, for DATEDIF), a checkbox as 1/0; empty as 0, as in formula fields. */
function numberOf(value: unknown, timeZone: string): number {
  if (value === null || value === undefined || value === '') return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const asNumber = Number(value);
  if (typeof value !== 'object' && Number.isFinite(asNumber)) return asNumber;
  return instantOf(value, timeZone) ?? NaN;
}

function compute(config: NumberMode, ctx: NodeContext): number | null {
  const { text, placeholders } = variablesOf(config.expression);
  const formula = compileFormula(text, 'expression', [...placeholders.values()]);
  const values = new Map([...placeholders].map(([whole, name]) => [name, numberOf(rawOf(whole, ctx), ctx.timeZone)]));
  const value = formula.evaluate(values);
  return value === null || config.precision === undefined ? value : Number(value.toFixed(config.precision));
}

/** The raw value a placeholder names (not its text): `$alias-fieldId$` as a field reference. */
function rawOf(placeholder: string, ctx: NodeContext): unknown {
  const [, node, key] = /^\$([A-Za-z0-9_]+)-([A-Za-z0-9_]+)\$$/.exec(placeholder)!;
  return node === 'system' ? resolveValue({ kind: 'systemField', fieldId: key as 'nowTime' }, ctx.values) : resolveValue({ kind: 'field', node, fieldId: key }, ctx.values);
}

function offset(date: unknown, expression: string, timeZone: string): string | null {
  const start = instantOf(date, timeZone);
  if (start === null) return null;
  const plus: DurationLikeObject = {};
  for (const [, sign, amount, unit] of expression.matchAll(/([+-])(\d+)([yMwdhm])/g)) {
    const key = UNITS[unit];
    plus[key] = (plus[key] ?? 0) + (sign === '-' ? -1 : 1) * Number(amount);
  }
  const moved = DateTime.fromMillis(start, { zone: timeZone }).plus(plus);
  // A date stays a date (what a Date field takes) unless the offset moves it by hours or minutes.
  const dateOnly = typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date.trim()) && !/[hm]/.test(expression);
  return dateOnly ? moved.toISODate() : isoOf(moved.toMillis());
}

/**
 * Compute (public type 9): number arithmetic with the formula fields' expression library
 * (`fields/computed/formula-expression.ts`; `$alias-fieldId$` placeholders for values), the difference
 * of two dates (`dateDiff`, whole minutes, hours, days, months or years), or a date moved by an offset
 * (`dateOffset`, `+3d`). Output `{value}`, also as `number_fx_id` (number, dateDiff) or `date_fx_id`
 * (dateOffset), the public output ids.
 */
export const computeNode = defineNodeType({
  type: 'compute',
  code: 9,
  config: Type.Union([NumberMode, DateDiffMode, DateOffsetMode]),
  exits: ['next'],
  effects: 'none',
  check(config, at) {
    if (config.mode === 'number') {
      const problems: NodeProblem[] = checkReferences([{ ref: { kind: 'template', value: config.expression }, path: 'expression' }], at);
      try {
        const { text, placeholders } = variablesOf(config.expression);
        compileFormula(text, 'expression', [...placeholders.values()]);
      } catch (error) {
        problems.push({ path: 'expression', message: (error as Error).message.replace(/^expression: /, '') });
      }
      return problems;
    }
    if (config.mode === 'dateDiff') return checkReferences([{ ref: config.start, path: 'start' }, { ref: config.end, path: 'end' }], at);
    return checkReferences([{ ref: config.date, path: 'date' }], at);
  },
  run(config, ctx) {
    if (config.mode === 'number') {
      const value = compute(config, ctx);
      return Promise.resolve({ exit: 'next', output: { value, number_fx_id: value } });
    }
    if (config.mode === 'dateDiff') {
      const start = instantOf(resolveValue(config.start, ctx.values), ctx.timeZone);
      const end = instantOf(resolveValue(config.end, ctx.values), ctx.timeZone);
      const unit = config.unit ?? 'day';
      const value = start === null || end === null ? null : unit === 'minute' ? Math.trunc((end - start) / 60_000) : dateDifference(start, end, unit[0].toUpperCase());
      return Promise.resolve({ exit: 'next', output: { value, number_fx_id: value } });
    }
    const value = offset(resolveValue(config.date, ctx.values), config.offsetExpression, ctx.timeZone);
    return Promise.resolve({ exit: 'next', output: { value, date_fx_id: value } });
  },
});
