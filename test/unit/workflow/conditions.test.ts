import { describe, expect, it } from 'vitest';
import { groupHolds } from '../../../src/workflow/conditions.js';
import { resolveValue, type ValueScope } from '../../../src/workflow/value-refs.js';

const scope: ValueScope = {
  outputs: { trigger: { rowId: 'r1', fields: { amount: 1500, status: [{ key: 'k1', value: 'Open' }], title: 'ACME order', done: true, empty: null } } },
  triggeredAt: Date.UTC(2026, 10, 25, 8),
  triggeredBy: 'acc-1',
  now: () => Date.UTC(2026, 10, 25, 9),
};
const f = (fieldId: string) => ({ kind: 'field' as const, node: 'trigger', fieldId });
const lit = (value: unknown) => ({ kind: 'literal' as const, value });

describe('workflow conditions', () => {
  it.each([
    ['gt', f('amount'), lit(1000), true],
    ['gt', f('amount'), lit('2000'), false],
    ['lte', f('amount'), lit(1500), true],
    ['eq', f('status'), lit('open'), true],
    ['eq', f('status'), lit('k1'), true],
    ['ne', f('status'), lit('Paid'), true],
    ['contains', f('title'), lit('acme'), true],
    ['starts_with', f('title'), lit('order'), false],
    ['in', f('status'), lit(['Paid', 'Open']), true],
    ['empty', f('empty'), undefined, true],
    ['not_empty', f('title'), undefined, true],
    ['checked', f('done'), undefined, true],
  ] as const)('%s %j %j → %s', (op, left, right, expected) => {
    expect(groupHolds({ logic: 'and', conditions: [{ left, op, ...(right ? { right } : {}) }] }, scope)).toBe(expected);
  });

  it('combines and/or groups', () => {
    const big = { left: f('amount'), op: 'gt' as const, right: lit(1000) };
    const paid = { left: f('status'), op: 'eq' as const, right: lit('Paid') };
    expect(groupHolds({ logic: 'or', conditions: [paid, big] }, scope)).toBe(true);
    expect(groupHolds({ logic: 'AND', conditions: [paid, big] }, scope)).toBe(false);
    expect(groupHolds({ logic: 'and', conditions: [big, { logic: 'or', conditions: [paid, big] }] }, scope)).toBe(true);
  });

  it('resolves templates, records and system values', () => {
    expect(resolveValue({ kind: 'template', value: 'Order $trigger-title$ ($trigger-status$) at $system-triggertime$' }, scope)).toBe('Order ACME order (Open) at 2026-11-25T08:00:00.000Z');
    expect(resolveValue({ kind: 'record', node: 'trigger' }, scope)).toBe('r1');
    expect(resolveValue({ kind: 'systemField', fieldId: 'triggeraid' }, scope)).toBe('acc-1');
  });
});
