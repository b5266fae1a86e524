import { beforeAll, describe, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * The filter language on `rows/list`, as one table of cases run on every engine over the same
 * records, each with the titles it must return (sorted by title). The same table on SQLite and
 * PostgreSQL is the equivalence test: both engines must give exactly these rows, in this order.
 * The clock is fixed at Saturday 2026-03-14 10:00 UTC (TIME_ZONE is UTC), so dynamic dates are known.
 */
const NOW = Date.UTC(2026, 2, 14, 10, 0, 0);

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Amount', alias: 'amount', type: '6' },
  { name: 'Status', alias: 'status', type: '9', options: [{ value: 'Open' }, { value: 'Paid' }, { value: 'Void' }] },
  { name: 'Tags', alias: 'tags', type: '10', options: [{ value: 'red' }, { value: 'green' }, { value: 'blue' }] },
  { name: 'Due', alias: 'due', type: '15' },
  { name: 'At', alias: 'at', type: '16' },
  { name: 'Clock', alias: 'clock', type: '46', subType: 6 },
  { name: 'Done', alias: 'done', type: '36' },
  { name: 'Who', alias: 'who', type: '26' },
  { name: 'Notes', alias: 'notes', type: '2' },
  { name: 'Place', alias: 'place', type: '40' },
  { name: 'Section', alias: 'section', type: '22' },
  { name: 'Area', alias: 'area', type: '24' },
  { name: 'Memo', alias: 'memo', type: '41' },
];

type Values = Record<string, unknown>;
const OWNER = '$owner';

const RECORDS: Values[] = [
  { title: 'Alpha', amount: 10, status: 'Open', tags: ['red'], due: '2026-03-14', at: '2026-03-14T08:00:00Z', clock: '09:00', done: true, who: [OWNER], notes: 'Hello World', place: { x: 121.5, y: 31.2 }, area: '310101', memo: '<p>signed</p>' },
  { title: 'Beta', amount: 20, status: 'Paid', tags: ['red', 'green'], due: '2026-03-13', at: '2026-03-13T23:59:00Z', clock: '12:30', done: false, notes: 'hello there', area: '310115' },
  { title: 'Gamma', amount: 30, status: 'Void', tags: ['blue'], due: '2026-03-20', at: '2026-03-10T00:00:00Z', clock: '18:45', who: [OWNER], notes: 'Ärger im Büro', area: '440305' },
  { title: 'Delta' },
  { title: 'epsilon 50%', amount: 50, status: 'Open', tags: ['green', 'blue'], due: '2026-02-28', at: '2026-02-01T12:00:00Z', clock: '23:59:30', done: true, notes: '100% sure_thing' },
  { title: 'Zeta', amount: -5, status: 'Paid', tags: [], due: '2025-12-31', at: '2025-12-31T23:00:00Z', notes: 'ÄRGER \u212AELVIN' },
];
const ALL = ['Alpha', 'Beta', 'Delta', 'Gamma', 'Zeta', 'epsilon 50%'];
const without = (...titles: string[]) => ALL.filter((t) => !titles.includes(t));

const cond = (field: string, operator: string, value?: unknown) => ({ type: 'condition', field, operator, ...(value === undefined ? {} : { value }) });
const and = (...children: unknown[]) => ({ type: 'group', logic: 'AND', children });
const or = (...children: unknown[]) => ({ type: 'group', logic: 'or', children });

/** [what it checks, filter, titles]; `$A`/`$C` stand for the ids of Alpha and Gamma, `$owner` for the owner account. */
const CASES: Array<[string, unknown, string[]]> = [
  ['number gt', and(cond('amount', 'gt', 15)), ['Beta', 'Gamma', 'epsilon 50%']],
  ['number ge as a string', and(cond('amount', 'ge', '20')), ['Beta', 'Gamma', 'epsilon 50%']],
  ['number lt leaves out empty values', and(cond('amount', 'lt', 10)), ['Zeta']],
  ['number le', and(cond('amount', 'le', 10)), ['Alpha', 'Zeta']],
  ['number eq, value in a one-element array', and(cond('amount', 'eq', ['20'])), ['Beta']],
  ['number ne includes empty values', and(cond('amount', 'ne', 20)), without('Beta')],
  ['number between is inclusive', and(cond('amount', 'between', [10, 30])), ['Alpha', 'Beta', 'Gamma']],
  ['number between with an open bound', and(cond('amount', 'between', [null, 10])), ['Alpha', 'Zeta']],
  ['number notbetween', and(cond('amount', 'notbetween', [10, 30])), ['Delta', 'Zeta', 'epsilon 50%']],
  ['number isempty', and(cond('amount', 'isempty')), ['Delta']],
  ['number isnotempty', and(cond('amount', 'isnotempty')), without('Delta')],
  ['text contains, any case', and(cond('notes', 'contains', 'HELLO')), ['Alpha', 'Beta']],
  ['text contains folds non-ASCII letters alike on both engines', and(cond('notes', 'contains', 'ärger')), ['Gamma', 'Zeta']],
  ['an ASCII word matches letters that fold to it (the Kelvin sign folds to k)', and(cond('notes', 'contains', 'kelvin')), ['Zeta']],
  ['text eq folds every letter', and(cond('notes', 'eq', 'ärger kelvin')), ['Zeta']],
  ['text contains % literally', and(cond('notes', 'contains', '%')), ['epsilon 50%']],
  ['text contains _ literally', and(cond('notes', 'contains', 'e_t')), ['epsilon 50%']],
  ['text startswith', and(cond('notes', 'startswith', 'hello')), ['Alpha', 'Beta']],
  ['text endswith', and(cond('notes', 'endswith', 'THERE')), ['Beta']],
  ['text notcontains includes empty values', and(cond('notes', 'notcontains', 'hello')), ['Delta', 'Gamma', 'Zeta', 'epsilon 50%']],
  ['text notstartswith', and(cond('notes', 'notstartswith', 'hello')), ['Delta', 'Gamma', 'Zeta', 'epsilon 50%']],
  ['text notendswith', and(cond('notes', 'notendswith', 'world')), without('Alpha')],
  ['text concurrent needs every word', and(cond('notes', 'concurrent', ['hello', 'world'])), ['Alpha']],
  ['text contains with a list means any', and(cond('notes', 'contains', ['world', 'büro'])), ['Alpha', 'Gamma']],
  ['text eq, any case', and(cond('notes', 'eq', 'HELLO THERE')), ['Beta']],
  ['text ne', and(cond('title', 'ne', 'alpha')), without('Alpha')],
  ['text isempty', and(cond('notes', 'isempty')), ['Delta']],
  ['single choice eq by text', and(cond('status', 'eq', 'Open')), ['Alpha', 'epsilon 50%']],
  ['single choice in', and(cond('status', 'in', ['Open', 'Paid'])), ['Alpha', 'Beta', 'Zeta', 'epsilon 50%']],
  ['single choice ne includes empty values', and(cond('status', 'ne', 'Open')), ['Beta', 'Delta', 'Gamma', 'Zeta']],
  ['single choice notin', and(cond('status', 'notin', ['Open', 'Paid'])), ['Delta', 'Gamma']],
  ['single choice isempty', and(cond('status', 'isempty')), ['Delta']],
  ['multiple choice eq holds any', and(cond('tags', 'eq', 'red')), ['Alpha', 'Beta']],
  ['multiple choice in', and(cond('tags', 'in', ['red', 'blue'])), ['Alpha', 'Beta', 'Gamma', 'epsilon 50%']],
  ['multiple choice concurrent holds all', and(cond('tags', 'concurrent', ['green', 'blue'])), ['epsilon 50%']],
  ['multiple choice ne holds none', and(cond('tags', 'ne', 'red')), ['Delta', 'Gamma', 'Zeta', 'epsilon 50%']],
  ['multiple choice isempty', and(cond('tags', 'isempty')), ['Delta', 'Zeta']],
  ['date eq a day', and(cond('due', 'eq', '2026-03-14')), ['Alpha']],
  ['date eq today', and(cond('due', 'eq', 'today')), ['Alpha']],
  ['date eq Today in any case and as the V2 number', or(cond('due', 'eq', 'TODAY'), cond('due', 'eq', 1)), ['Alpha']],
  ['date eq yesterday', and(cond('due', 'eq', 'yesterday')), ['Beta']],
  ['date eq thisWeek (Monday to Sunday)', and(cond('due', 'eq', 'thisWeek')), ['Alpha', 'Beta']],
  ['date eq thisMonth', and(cond('due', 'eq', 'thisMonth')), ['Alpha', 'Beta', 'Gamma']],
  ['date eq lastMonth', and(cond('due', 'eq', 'lastMonth')), ['epsilon 50%']],
  ['date eq lastYear', and(cond('due', 'eq', 'lastYear')), ['Zeta']],
  ['date eq thisQuarter', and(cond('due', 'eq', 'thisQuarter')), ['Alpha', 'Beta', 'Gamma', 'epsilon 50%']],
  ['date eq last7Day', and(cond('due', 'eq', 'last7Day')), ['Alpha', 'Beta']],
  ['date eq next7Day', and(cond('due', 'eq', 'next7Day')), ['Alpha', 'Gamma']],
  ['date gt today', and(cond('due', 'gt', 'today')), ['Gamma']],
  ['date lt thisMonth', and(cond('due', 'lt', 'thisMonth')), ['Zeta', 'epsilon 50%']],
  ['date ne today includes empty values', and(cond('due', 'ne', 'today')), without('Alpha')],
  ['date between days', and(cond('due', 'between', ['2026-02-01', '2026-03-13'])), ['Beta', 'epsilon 50%']],
  ['date notbetween', and(cond('due', 'notbetween', ['2026-02-01', '2026-03-13'])), ['Alpha', 'Delta', 'Gamma', 'Zeta']],
  ['date-time eq today means the whole day', and(cond('at', 'eq', 'today')), ['Alpha']],
  ['date-time eq a day', and(cond('at', 'eq', '2026-03-13')), ['Beta']],
  ['date-time eq a minute', and(cond('at', 'eq', '2026-03-13 23:59')), ['Beta']],
  ['date-time ge thisMonth', and(cond('at', 'ge', 'thisMonth')), ['Alpha', 'Beta', 'Gamma']],
  ['date-time lt a minute', and(cond('at', 'lt', '2026-03-10 00:00')), ['Zeta', 'epsilon 50%']],
  ['date-time between days', and(cond('at', 'between', ['2026-03-10', '2026-03-13'])), ['Beta', 'Gamma']],
  ['time between minutes, the end minute included', and(cond('clock', 'between', ['09:00', '12:30'])), ['Alpha', 'Beta']],
  ['time gt', and(cond('clock', 'gt', '18:45')), ['epsilon 50%']],
  ['time eq a minute', and(cond('clock', 'eq', '23:59')), ['epsilon 50%']],
  ['checkbox isnotempty means checked', and(cond('done', 'isnotempty')), ['Alpha', 'epsilon 50%']],
  ['checkbox isempty means unchecked', and(cond('done', 'isempty')), ['Beta', 'Delta', 'Gamma', 'Zeta']],
  ['member eq', and(cond('who', 'eq', OWNER)), ['Alpha', 'Gamma']],
  ['member ne', and(cond('who', 'ne', [OWNER])), ['Beta', 'Delta', 'Zeta', 'epsilon 50%']],
  ['member isempty', and(cond('who', 'isempty')), ['Beta', 'Delta', 'Zeta', 'epsilon 50%']],
  ['location isnotempty', and(cond('place', 'isnotempty')), ['Alpha']],
  ['region eq compares codes exactly', and(cond('area', 'eq', '310101')), ['Alpha']],
  ['region in', and(cond('area', 'in', ['440305', 310115])), ['Beta', 'Gamma']],
  ['region belongsto a province', and(cond('area', 'belongsto', '310000')), ['Alpha', 'Beta']],
  ['region belongsto a city', and(cond('area', 'belongsto', '440300')), ['Gamma']],
  ['region belongsto several', and(cond('area', 'belongsto', ['440000', '310101'])), ['Alpha', 'Gamma']],
  ['region belongsto a region without the rows', and(cond('area', 'belongsto', '910000')), []],
  ['region notbelongsto includes empty values', and(cond('area', 'notbelongsto', '310000')), ['Delta', 'Gamma', 'Zeta', 'epsilon 50%']],
  ['rich text isnotempty', and(cond('memo', 'isnotempty')), ['Alpha']],
  ['rowid in', and(cond('rowid', 'in', ['$A', '$C'])), ['Alpha', 'Gamma']],
  ['id ne', and(cond('id', 'ne', '$A')), without('Alpha')],
  ['_createdBy eq user-self (the API user for an app key)', and(cond('_createdBy', 'eq', 'user-self')), ALL],
  ['caid eq another account', and(cond('caid', 'eq', 'someone-else')), []],
  ['_createdAt eq today', and(cond('_createdAt', 'eq', 'today')), ALL],
  ['ctime lt today', and(cond('ctime', 'lt', 'today')), []],
  ['OR of conditions', or(cond('status', 'eq', 'Open'), cond('amount', 'gt', 25)), ['Alpha', 'Gamma', 'epsilon 50%']],
  ['AND of an OR group and a condition', and(or(cond('status', 'eq', 'Open'), cond('status', 'eq', 'Paid')), cond('amount', 'gt', 0)), ['Alpha', 'Beta', 'epsilon 50%']],
  ['a bare condition at the top is a group of one', cond('amount', 'gt', 15), ['Beta', 'Gamma', 'epsilon 50%']],
  ['an empty group means every row', and(), ALL],
  ['an empty group inside adds nothing', and(and(), cond('amount', 'gt', 15)), ['Beta', 'Gamma', 'epsilon 50%']],
  ['logic in lower case, type in upper case', { type: 'GROUP', logic: 'and', children: [{ type: 'CONDITION', field: 'amount', operator: 'EQ', value: 10 }] }, ['Alpha']],
];

/** [filter, error code, a part of the message]. */
const ERRORS: Array<[string, unknown, number, string]> = [
  ['an unknown field', and(cond('nope', 'eq', 1)), 10002, 'filter.children[0].field: no field "nope"'],
  ['an unknown operator (the public service ignores it; we do not)', and(cond('amount', 'gte', 1)), 10002, 'filter.children[0] "Amount": unknown operator "gte"'],
  ['an operator the type does not allow', and(and(cond('amount', 'gt', 1)), or(cond('amount', 'contains', '1'))), 10002, 'filter.children[1].children[0] "Amount": operator contains is not allowed on Number'],
  ['a missing value', and(cond('amount', 'gt')), 10001, 'filter.children[0] "Amount": operator gt needs a value'],
  ['a value that is not a number', and(cond('amount', 'gt', 'abc')), 10002, 'filter.children[0] "Amount": expected a number'],
  ['between with one bound', and(cond('amount', 'between', [1])), 10002, 'two-element array'],
  ['an unknown option', and(cond('status', 'eq', 'Nope')), 10002, 'filter.children[0] "Status": unknown option'],
  ['a date that is none', and(cond('due', 'eq', 'someday')), 10002, 'filter.children[0] "Due": "someday" is neither a date'],
  ['too deep a tree', and(and(and(cond('amount', 'gt', 1)))), 10002, 'filter.children[0].children[0]: groups nest at most 2 deep'],
  ['an unknown logic', { type: 'group', logic: 'XOR', children: [] }, 10002, 'filter.logic: must be "AND" or "OR"'],
  ['a condition without a field', and({ type: 'condition', operator: 'eq', value: 1 }), 10001, 'filter.children[0].field is required'],
  ['a field that holds no value', and(cond('section', 'isempty')), 10002, 'holds no value'],
  ['text matching on a region', and(cond('area', 'contains', '31')), 10002, 'operator contains is not allowed on Region'],
  ['text matching on rich text', and(cond('memo', 'contains', 'p')), 10002, 'operator contains is not allowed on RichText; use isempty, isnotempty'],
  ['a region code that is none', and(cond('area', 'eq', 'Shanghai')), 10002, 'expected region codes'],
  ['a filter that is not an object', 'amount > 5', 10001, 'filter: expected a group'],
  ['text to match over 5,000 characters (SQLite refuses longer patterns)', and(cond('notes', 'contains', 'x'.repeat(5_001))), 10002, 'text to match is at most 5000 characters'],
];

describeApi(
  'record filters',
  (ctx) => {
    let sheet: Sheet;
    const ids: Record<string, string> = {};

    function substitute(value: unknown): unknown {
      if (value === OWNER) return ctx.setup.owner.accountId;
      if (value === '$A') return ids.Alpha;
      if (value === '$C') return ids.Gamma;
      if (Array.isArray(value)) return value.map(substitute);
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
      return value;
    }

    async function list(filter: unknown, extra: Record<string, unknown> = {}) {
      return ctx.call<{ rows: WireRecord[]; total?: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, {
        pageSize: 100,
        sorts: [{ field: 'title', isAsc: true }],
        filter: substitute(filter),
        ...extra,
      });
    }

    const titleOf = (record: WireRecord) => record.fields.find((f) => f.id === sheet.field.title)?.value;

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Filtered', FIELDS);
      const rows = RECORDS.map((values) => ({ fields: Object.entries(values).map(([id, value]) => ({ id, value: substitute(value) })) }));
      const created = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows });
      expect(created.body.error_msg).toBe('');
      created.body.data.rowIds.forEach((id, i) => (ids[RECORDS[i].title as string] = id));
    });

    describe('returns exactly the expected rows, in order', () => {
      it.each(CASES)('%s', async (_what, filter, titles) => {
        const response = await list(filter);
        expect(response.body.error_msg).toBe('');
        expect(response.body.data.rows.map(titleOf)).toEqual(titles);
        expect(response.body.data.total).toBe(titles.length);
      });
    });

    describe('refuses a bad filter with a message naming the condition', () => {
      it.each(ERRORS)('%s', async (_what, filter, code, message) => {
        const response = await list(filter);
        expect(response.status).toBe(400);
        expect(response.body.error_code).toBe(code);
        expect(response.body.error_msg).toContain(message);
      });
    });

    describe('search matches every word in any text or option text, any case', () => {
      const SEARCHES: Array<[string, string, string[]]> = [
        ['one word in a text field', 'hello', ['Alpha', 'Beta']],
        ['two words must both match', 'HELLO world', ['Alpha']],
        ['non-ASCII letters fold alike', 'ärger', ['Gamma', 'Zeta']],
        ['a single choice by its option text', 'paid', ['Beta', 'Zeta']],
        ['a multiple choice by its option text', 'blu', ['Gamma', 'epsilon 50%']],
        ['the title', 'alpha', ['Alpha']],
        ['% is literal', '50%', ['epsilon 50%']],
        ['numbers are not searched', '-5', []],
        ['blank means no search', '   ', ALL],
        ['nothing matches', 'no-such-word', []],
      ];
      it.each(SEARCHES)('%s', async (_what, search, titles) => {
        const response = await list(undefined, { search });
        expect(response.body.error_msg).toBe('');
        expect(response.body.data.rows.map(titleOf)).toEqual(titles);
        expect(response.body.data.total).toBe(titles.length);
      });

      it('combines with a filter', async () => {
        const response = await list(and(cond('amount', 'gt', 15)), { search: 'hello' });
        expect(response.body.data.rows.map(titleOf)).toEqual(['Beta']);
      });

      it('refuses a word over 5,000 characters alike on both engines', async () => {
        const response = await list(undefined, { search: 'x'.repeat(50_001) });
        expect(response.status).toBe(400);
        expect(response.body.error_code).toBe(10002);
        expect(response.body.error_msg).toContain('search: text to match is at most 5000 characters');
      });

      it('refuses more than 20 words', async () => {
        const response = await list(undefined, { search: Array.from({ length: 21 }, (_, i) => `w${i}`).join(' ') });
        expect(response.status).toBe(400);
        expect(response.body.error_code).toBe(10002);
        expect(response.body.error_msg).toContain('search: at most 20 words');
      });
    });

    it('pages a filtered list, and counts only when the total is wanted', async () => {
      const filter = and(cond('amount', 'isnotempty'));
      const first = await list(filter, { pageSize: 2, pageIndex: 1 });
      const second = await list(filter, { pageSize: 2, pageIndex: 2, includeTotalCount: false });
      expect(first.body.data.rows.map(titleOf)).toEqual(['Alpha', 'Beta']);
      expect(first.body.data.total).toBe(5);
      expect(second.body.data.rows.map(titleOf)).toEqual(['Gamma', 'Zeta']);
      expect(second.body.data).not.toHaveProperty('total');
    });

    it('keeps records in the recycle bin out of filtered lists and their totals', async () => {
      const made = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'Binned' }, { id: 'amount', value: 999 }] });
      const deleted = await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${made.body.data.id}`);
      expect(deleted.body.error_code).toBe(1);
      const response = await list(and(cond('amount', 'gt', 100)));
      expect(response.body.data.rows).toEqual([]);
      expect(response.body.data.total).toBe(0);
    });
  },
  {},
  { clock: () => NOW },
);
