import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { resolveValue, ValueRef, type ValueScope } from './value-refs.js';

/**
 * Conditions of branches and triggers inside a run (facts §7.4): `{left, op, right}` with value
 * references on both sides, in groups of `and`/`or` nested like the filter language's tree.
 * Compared as the public service does: text case-insensitively, numbers as numbers, choices and
 * members by any of their key, id or text.
 * @example { logic: 'and', conditions: [{ left: { kind: 'field', node: 'trigger', fieldId: 'amount' }, op: 'gt', right: { kind: 'literal', value: 1000 } }] }
 */
export const CONDITION_OPERATORS = [
  'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'empty', 'not_empty', 'contains', 'not_contains',
  'starts_with', 'ends_with', 'all_contains', 'belongs', 'not_belongs', 'checked', 'unchecked',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const Condition = Type.Object({
  left: ValueRef,
  op: Type.Union(CONDITION_OPERATORS.map((op) => Type.Literal(op))),
  right: Type.Optional(ValueRef),
});
export type Condition = Static<typeof Condition>;

function groupOf(inner: TSchema) {
  return Type.Object({ logic: Type.Union([Type.Literal('and'), Type.Literal('or'), Type.Literal('AND'), Type.Literal('OR')]), conditions: Type.Array(inner, { minItems: 1 }) });
}
/** A group of conditions, nested at most twice (group → group → condition), as filters are. */
export const ConditionGroup = groupOf(Type.Union([Condition, groupOf(Condition)]));
export type ConditionGroup = Static<typeof ConditionGroup>;

/** The texts, keys and ids a value matches by: a choice by its key and text, a member by id and name, a list by each item. */
function tokens(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(tokens);
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return ['key', 'value', 'id', 'accountId', 'departmentId', 'name', 'fullname', 'code', 'sid'].flatMap((k) => (typeof o[k] === 'string' || typeof o[k] === 'number' ? [String(o[k]).toLowerCase()] : []));
  }
  return [String(value).toLowerCase()];
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const asNumber = Number(value);
    if (Number.isFinite(asNumber)) return asNumber;
    const asTime = Date.parse(value);
    return Number.isNaN(asTime) ? null : asTime;
  }
  return null;
}

function compare(left: unknown, right: unknown): number | null {
  const a = numberOf(left);
  const b = numberOf(right);
  if (a !== null && b !== null) return a - b;
  if (typeof left === 'string' && typeof right === 'string') return left.localeCompare(right);
  return null;
}

function isEmpty(value: unknown): boolean {
  return tokens(value).length === 0 && value !== 0 && value !== false;
}

function isChecked(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

const TESTS: Record<ConditionOperator, (left: unknown, right: unknown) => boolean> = {
  eq: (l, r) => (compare(l, r) ?? 1) === 0 || sameTokens(l, r),
  ne: (l, r) => !TESTS.eq(l, r),
  gt: (l, r) => (compare(l, r) ?? 0) > 0,
  gte: (l, r) => (compare(l, r) ?? -1) >= 0,
  lt: (l, r) => (compare(l, r) ?? 0) < 0,
  lte: (l, r) => (compare(l, r) ?? 1) <= 0,
  in: (l, r) => tokens(l).some((t) => tokens(r).includes(t)),
  not_in: (l, r) => !TESTS.in(l, r),
  empty: (l) => isEmpty(l),
  not_empty: (l) => !isEmpty(l),
  contains: (l, r) => tokens(r).every((needle) => tokens(l).some((t) => t.includes(needle))),
  not_contains: (l, r) => !TESTS.contains(l, r),
  starts_with: (l, r) => tokens(r).some((needle) => tokens(l).some((t) => t.startsWith(needle))),
  ends_with: (l, r) => tokens(r).some((needle) => tokens(l).some((t) => t.endsWith(needle))),
  all_contains: (l, r) => tokens(r).every((t) => tokens(l).includes(t)),
  belongs: (l, r) => tokens(l).length > 0 && tokens(l).every((t) => tokens(r).includes(t)),
  not_belongs: (l, r) => !TESTS.belongs(l, r),
  checked: (l) => isChecked(l),
  unchecked: (l) => !isChecked(l),
};

function sameTokens(left: unknown, right: unknown): boolean {
  const a = tokens(left);
  const b = tokens(right);
  return a.length > 0 && b.length > 0 && b.every((t) => a.includes(t));
}

function holds(condition: Condition | ConditionGroup, scope: ValueScope): boolean {
  if ('conditions' in condition) return groupHolds(condition, scope);
  const left = resolveValue(condition.left, scope);
  const right = condition.right ? resolveValue(condition.right, scope) : null;
  return TESTS[condition.op](left, right);
}

/** Whether a group holds for the run's values. An `or` group holds when any member does. */
export function groupHolds(group: ConditionGroup | { logic: string; conditions: Array<Condition | ConditionGroup> }, scope: ValueScope): boolean {
  const members = group.conditions as Array<Condition | ConditionGroup>;
  return group.logic.toLowerCase() === 'or' ? members.some((c) => holds(c, scope)) : members.every((c) => holds(c, scope));
}

/** Every value reference in a group, for checks at save time. */
export function referencesOf(group: ConditionGroup | { conditions: unknown[] }): ValueRef[] {
  return (group.conditions as Array<Condition | ConditionGroup>).flatMap((c) => ('conditions' in c ? referencesOf(c) : [c.left, ...(c.right ? [c.right] : [])]));
}
