import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../../src/modules/workflows/index.js';
import { AppError } from '../../../src/shared/app-error.js';
import { GIVEN_LATER, inputProblems, readInputs } from '../../../src/workflow/process-inputs.js';

const p = (name: string, type: Parameter['type'], extra: Partial<Parameter> = {}): Parameter => ({ name, type, required: false, desc: '', ...extra });
const strict = { strict: true, timeZone: 'Europe/Berlin' };

describe('process inputs: one reading for hook calls, sub-process runs and sub-process checks', () => {
  it('takes values as the record API reads them: an instant as the wall time in the zone, members and departments by id, a single select by its text', () => {
    const parameters = [p('when', 'date'), p('owners', 'member'), p('team', 'department'), p('level', 'radio', { options: [{ key: 'l', value: 'Low' }, { key: 'h', value: 'High' }] })];
    const read = readInputs(parameters, { when: '2026-01-15T08:00:00.000Z', owners: [{ accountId: 'acc-1', fullname: 'Ann' }], team: [{ id: 'dep-1', name: 'Sales' }], level: [{ key: 'h', value: 'High' }] }, strict);
    expect(read).toEqual({ when: '2026-01-15 09:00', owners: ['acc-1'], team: ['dep-1'], level: 'High' });
    expect(readInputs([p('when', 'date')], { when: '2026-07-15T08:00:00+02:00' }, strict)).toEqual({ when: '2026-07-15 08:00' });
  });

  it('throws the first problem as the hook answers it, naming the input as it was given', () => {
    const parameters = [p('n', 'number', { required: true }), p('note', 'text', { alias: 'remark' })];
    const failure = (body: Record<string, unknown>) => {
      try {
        readInputs(parameters, body, strict);
      } catch (error) {
        return error instanceof AppError ? [error.code, error.message] : ['not an AppError', String(error)];
      }
      return null;
    };
    expect(failure({})).toEqual([10001, 'n is required']);
    expect(failure({ n: 'x' })).toEqual([10002, 'n: expected a number, got "x"']);
    expect(failure({ n: 1, remark: {} })).toEqual([10002, 'remark: expected text, got {}']);
    expect(failure({ n: 1, other: 1 })).toEqual([10001, 'other: no such input; inputs are n, note']);
  });

  it('collects every problem for a check; a value given later counts as given and is not read', () => {
    const parameters = [p('n', 'number', { required: true }), p('due', 'date', { required: true }), p('lines', 'object_array', { children: [p('qty', 'number', { required: true })] })];
    expect(inputProblems(parameters, { n: GIVEN_LATER, lines: [{ qty: 'many' }, {}], extra: 1 })).toEqual([
      { input: 'due', kind: 'missing', reason: 'is required' },
      { input: 'lines[0].qty', kind: 'invalid', reason: 'expected a number, got "many"' },
      { input: 'lines[1].qty', kind: 'missing', reason: 'is required' },
      { input: 'extra', kind: 'unknown', reason: 'no such input; inputs are n, due, lines' },
    ]);
    expect(inputProblems(parameters, { n: GIVEN_LATER, due: GIVEN_LATER })).toEqual([]);
  });
});
