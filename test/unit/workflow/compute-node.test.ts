import { describe, expect, it } from 'vitest';
import { computeNode } from '../../../src/workflow/node-types/compute.js';
import { fakeCheck, fakeContext, outputOf } from './fake-node-context.js';

const outputs = { start: { fields: { price: '12.50', qty: 4, empty: null, due: '2026-12-01', at: '2026-11-25T09:00:00.000Z' } } };
const run = async (config: Parameters<typeof computeNode.run>[0], timeZone = 'UTC') => outputOf(await computeNode.run(config, { ...fakeContext(outputs), timeZone }));
const field = (fieldId: string) => ({ kind: 'field' as const, node: 'start', fieldId });

describe('compute node', () => {
  it('computes numbers with the formula library: placeholders, functions, precision; an empty value is 0', async () => {
    expect(await run({ mode: 'number', expression: '$start-price$ * $start-qty$ + 1' })).toEqual({ value: 51, number_fx_id: 51 });
    expect(await run({ mode: 'number', expression: 'ROUND($start-price$ / 3, 2)' })).toMatchObject({ value: 4.17 });
    expect(await run({ mode: 'number', expression: '$start-price$ / 3', precision: 1 })).toMatchObject({ value: 4.2 });
    expect(await run({ mode: 'number', expression: '$start-empty$ + 2' })).toMatchObject({ value: 2 });
    expect(await run({ mode: 'number', expression: 'DATEDIF($start-at$, $start-due$, "D")' })).toMatchObject({ value: 5 });
    expect(await run({ mode: 'number', expression: '1 / 0' })).toMatchObject({ value: null });
  });

  it('computes the difference of two dates in whole units', async () => {
    expect(await run({ mode: 'dateDiff', start: field('at'), end: field('due') })).toEqual({ value: 5, number_fx_id: 5 });
    expect(await run({ mode: 'dateDiff', start: field('at'), end: field('due'), unit: 'hour' })).toMatchObject({ value: 135 });
    expect(await run({ mode: 'dateDiff', start: field('at'), end: field('due'), unit: 'minute' })).toMatchObject({ value: 8100 });
    expect(await run({ mode: 'dateDiff', start: field('empty'), end: field('due') })).toMatchObject({ value: null });
  });

  it('moves a date by an offset expression: a date stays a date, hours make a date-time, in the time zone', async () => {
    expect(await run({ mode: 'dateOffset', date: field('due'), offsetExpression: '+3d' })).toEqual({ value: '2026-12-04', date_fx_id: '2026-12-04' });
    expect(await run({ mode: 'dateOffset', date: field('due'), offsetExpression: '-1M+1y' })).toMatchObject({ value: '2027-11-01' });
    expect(await run({ mode: 'dateOffset', date: field('at'), offsetExpression: '+2h-30m' })).toMatchObject({ value: '2026-11-25T10:30:00.000Z' });
    // Midnight in Berlin, a day on: across no DST change, 23:00 UTC the next day.
    expect(await run({ mode: 'dateOffset', date: field('due'), offsetExpression: '+1d+0h' }, 'Europe/Berlin')).toMatchObject({ value: '2026-12-01T23:00:00.000Z' });
    expect(await run({ mode: 'dateOffset', date: field('empty'), offsetExpression: '+1d' })).toMatchObject({ value: null });
  });

  it('checks the expression and the nodes it refers to when saved', async () => {
    expect(await computeNode.check!({ mode: 'number', expression: '$start-price$ * 2' }, fakeCheck({ start: 'trigger' }))).toEqual([]);
    expect(await computeNode.check!({ mode: 'number', expression: '$later-x$ +' }, fakeCheck({ start: 'trigger' }))).toEqual([
      { path: 'expression', message: 'refers to the node "later", which does not run before this one' },
      { path: 'expression', message: expect.stringContaining('does not parse') },
    ]);
    expect(await computeNode.check!({ mode: 'number', expression: 'EVIL($start-price$)' }, fakeCheck({ start: 'trigger' }))).toEqual([{ path: 'expression', message: expect.stringContaining('the function EVIL') }]);
    expect(await computeNode.check!({ mode: 'dateDiff', start: field('at'), end: { kind: 'field', node: 'nope', fieldId: 'x' } }, fakeCheck({ start: 'trigger' }))).toEqual([{ path: 'end', message: expect.stringContaining('"nope"') }]);
  });
});
