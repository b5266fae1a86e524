import { beforeAll, describe, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { makeSheet, type PivotData, type Sheet } from '../helpers/record-fixtures.js';

/**
 * `rows/pivot` over a small worksheet, on every engine: the same exact groups, cells and pages on
 * SQLite and PostgreSQL. The clock is fixed at Saturday 2026-03-14 10:00 UTC.
 */
const NOW = Date.UTC(2026, 2, 14, 10, 0, 0);

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Amount', alias: 'amount', type: '6' },
  { name: 'Status', alias: 'status', type: '9', options: [{ value: 'Open' }, { value: 'Paid' }, { value: 'Void' }] },
  { name: 'Due', alias: 'due', type: '15' },
  { name: 'At', alias: 'at', type: '16' },
  { name: 'Tags', alias: 'tags', type: '10', options: [{ value: 'red' }, { value: 'blue' }] },
  { name: 'Section', alias: 'section', type: '22' },
];

// Weeks: 2026-03-14 (Sat) and 2026-03-09 (Mon) are 2026-W11; 2025-12-29 (Mon) is already 2026-W01.
const RECORDS: Array<Record<string, unknown>> = [
  { title: 'A', amount: 10, status: 'Open', due: '2026-03-14', at: '2026-03-14T08:00:00Z' },
  { title: 'B', amount: 20, status: 'Paid', due: '2026-03-09', at: '2026-03-31T23:30:00Z' },
  { title: 'C', amount: 30, status: 'Open', due: '2026-02-28', at: '2026-02-01T12:00:00Z' },
  { title: 'D', status: 'Paid', due: '2026-01-05', at: '2026-01-10T00:00:00Z' },
  { title: 'E', amount: 40, due: '2025-12-29' },
  { title: 'F', amount: 5, status: 'Void' },
];

type Body = Record<string, unknown>;

async function createRecords(ctx: ApiContext, sheet: Sheet, records: Array<Record<string, unknown>>) {
  const rows = records.map((values) => ({ fields: Object.entries(values).map(([id, value]) => ({ id, value })) }));
  const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows });
  expect(created.body.error_msg).toBe('');
}

describeApi(
  'record pivots',
  (ctx) => {
    let sheet: Sheet;
    let f: Record<string, string>;

    async function pivot(body: Body) {
      return ctx.call<PivotData>('POST', `/v3/app/worksheets/${sheet.id}/rows/pivot`, body);
    }
    async function pivotOk(body: Body) {
      const response = await pivot(body);
      expect(response.body.error_msg).toBe('');
      return response.body.data;
    }
    /** The groups as compact tuples: [row cells…, column cells…, value cells…] in field order of the request. */
    const groupsOf = (data: PivotData) => data.pivot.map((g) => [...Object.values(g.rows), ...Object.values(g.columns), ...Object.values(g.values)]);

    const byStatus = { rows: [{ field: 'status' }], values: [{ field: 'record_count' }, { field: 'amount', aggregation: 'sum', displayName: 'Total' }] };

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Pivoted', FIELDS);
      f = sheet.field;
      await createRecords(ctx, sheet, RECORDS);
      // A record in the recycle bin counts nowhere.
      const made = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'amount', value: 1000 }, { id: 'status', value: 'Open' }] });
      await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${made.body.data.id}`);
    });

    it('groups by a single choice, shows option texts in option order (empty first), keys cells by field id', async () => {
      const data = await pivotOk(byStatus);
      expect(data.meta).toEqual({
        rows: [{ field: f.status, displayName: 'Status', includeEmpty: true }],
        columns: [],
        values: [
          { field: 'record_count', displayName: 'Record count', aggregation: 'COUNT' },
          { field: f.amount, displayName: 'Total', aggregation: 'SUM' },
        ],
      });
      expect(data.pivot).toEqual([
        { rows: { [f.status]: null }, columns: {}, values: { record_count: 1, [f.amount]: 40 } },
        { rows: { [f.status]: 'Open' }, columns: {}, values: { record_count: 2, [f.amount]: 40 } },
        { rows: { [f.status]: 'Paid' }, columns: {}, values: { record_count: 2, [f.amount]: 20 } },
        { rows: { [f.status]: 'Void' }, columns: {}, values: { record_count: 1, [f.amount]: 5 } },
      ]);
      expect(data).not.toHaveProperty('summary');
      expect([data.totalPages, data.currentPage]).toEqual([1, 1]);
    });

    it('crosses a single choice with the month of a date', async () => {
      const data = await pivotOk({ ...byStatus, columns: [{ field: 'due', granularity: 3, displayName: 'Due month' }] });
      expect(data.meta.columns).toEqual([{ field: f.due, displayName: 'Due month', granularity: 3, includeEmpty: true }]);
      expect(data.pivot[0]).toEqual({ rows: { [f.status]: null }, columns: { [f.due]: '2025-12' }, values: { record_count: 1, [f.amount]: 40 } });
      expect(groupsOf(data)).toEqual([
        [null, '2025-12', 1, 40],
        ['Open', '2026-02', 1, 30],
        ['Open', '2026-03', 1, 10],
        ['Paid', '2026-01', 1, null],
        ['Paid', '2026-03', 1, 20],
        ['Void', null, 1, 5],
      ]);
    });

    it.each([
      ['day (the default)', undefined, [[null, 1], ['2025-12-29', 1], ['2026-01-05', 1], ['2026-02-28', 1], ['2026-03-09', 1], ['2026-03-14', 1]]],
      ['ISO week', 2, [[null, 1], ['2026-W01', 1], ['2026-W02', 1], ['2026-W09', 1], ['2026-W11', 2]]],
      ['quarter', 4, [[null, 1], ['2025-Q4', 1], ['2026-Q1', 4]]],
      ['year', 5, [[null, 1], ['2025', 1], ['2026', 4]]],
    ])('buckets a date by %s', async (_what, granularity, expected) => {
      const data = await pivotOk({ rows: [{ field: f.due, granularity }], values: [{ field: 'record_count' }] });
      expect(groupsOf(data)).toEqual(expected);
    });

    it('buckets a date-time by month and quarter in TIME_ZONE (UTC here)', async () => {
      const month = await pivotOk({ rows: [{ field: 'at', granularity: 3 }], values: [{ field: 'record_count' }] });
      expect(groupsOf(month)).toEqual([[null, 2], ['2026-01', 1], ['2026-02', 1], ['2026-03', 2]]);
      const quarter = await pivotOk({ rows: [{ field: 'at', granularity: 4 }], values: [{ field: 'record_count' }] });
      expect(groupsOf(quarter)).toEqual([[null, 2], ['2026-Q1', 4]]);
    });

    it('applies a filter before grouping', async () => {
      const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'status', operator: 'eq', value: 'Open' }] };
      const data = await pivotOk({ rows: [{ field: 'due', granularity: 3 }], values: byStatus.values, filter, includeSummary: true });
      expect(groupsOf(data)).toEqual([['2026-02', 1, 30], ['2026-03', 1, 10]]);
      expect(data.summary).toEqual({ record_count: 2, [f.amount]: 40 });
    });

    it('adds a summary over every filtered record', async () => {
      const data = await pivotOk({ ...byStatus, includeSummary: 'true' });
      expect(data.summary).toEqual({ record_count: 6, [f.amount]: 105 });
    });

    it('pages over groups with totalPages and currentPage', async () => {
      const first = await pivotOk({ ...byStatus, pageSize: 3 });
      const second = await pivotOk({ ...byStatus, pageSize: 3, pageIndex: 2 });
      const beyond = await pivotOk({ ...byStatus, pageSize: 3, pageIndex: 3 });
      expect(groupsOf(first)).toEqual([[null, 1, 40], ['Open', 2, 40], ['Paid', 2, 20]]);
      expect([first.totalPages, first.currentPage]).toEqual([2, 1]);
      expect(groupsOf(second)).toEqual([['Void', 1, 5]]);
      expect([second.totalPages, second.currentPage]).toEqual([2, 2]);
      expect(beyond.pivot).toEqual([]);
      expect([beyond.totalPages, beyond.currentPage]).toEqual([2, 3]);
      // A page that is exactly full is not known to be the last without counting.
      const exact = await pivotOk({ ...byStatus, pageSize: 4 });
      expect([exact.pivot.length, exact.totalPages]).toEqual([4, 1]);
      const short = await pivotOk({ ...byStatus, pageSize: 5 });
      expect([short.pivot.length, short.totalPages]).toEqual([4, 1]);
    });

    it('drops empty groups with includeEmpty false, in the summary too', async () => {
      const data = await pivotOk({ ...byStatus, rows: [{ field: 'status', includeEmpty: false }], includeSummary: true });
      expect(groupsOf(data)).toEqual([['Open', 2, 40], ['Paid', 2, 20], ['Void', 1, 5]]);
      expect(data.meta.rows[0].includeEmpty).toBe(false);
      expect(data.summary).toEqual({ record_count: 5, [f.amount]: 65 });
    });

    it('sorts groups by a value (by displayName), then by the dimensions', async () => {
      const data = await pivotOk({ ...byStatus, sorts: [{ field: 'Total', isAsc: false }] });
      expect(groupsOf(data)).toEqual([[null, 1, 40], ['Open', 2, 40], ['Paid', 2, 20], ['Void', 1, 5]]);
      const byDimension = await pivotOk({ ...byStatus, sorts: [{ field: 'status', isAsc: false }] });
      expect(groupsOf(byDimension).map((g) => g[0])).toEqual(['Void', 'Paid', 'Open', null]);
    });

    it.each([
      ['COUNT', 5],
      ['distinctCount', 5],
      ['Sum', 105],
      ['min', 5],
      ['MAX', 40],
      ['avg', 21],
    ])('aggregates %s without dimensions as one group', async (aggregation, expected) => {
      const data = await pivotOk({ values: [{ field: 'amount', aggregation }], includeSummary: true });
      expect(data.pivot).toEqual([{ rows: {}, columns: {}, values: { [f.amount]: expected } }]);
      expect(data.summary).toEqual({ [f.amount]: expected });
    });

    it('counts 0 and sums null when no record matches', async () => {
      const filter = { type: 'condition', field: 'amount', operator: 'gt', value: 5000 };
      const data = await pivotOk({ ...byStatus, filter, includeSummary: true });
      expect(data.pivot).toEqual([]);
      expect(data.summary).toEqual({ record_count: 0, [f.amount]: null });
      expect(data.totalPages).toBe(0);
    });

    /** [what, body, error code, a part of the message]. */
    const ERRORS: Array<[string, Body, number, string]> = [
      ['an unknown row field', { rows: [{ field: 'nope' }], values: [{ field: 'record_count' }] }, 10002, 'rows[0].field: no field "nope"'],
      ['an unknown column field', { columns: [{ field: 'nope' }], values: [{ field: 'record_count' }] }, 10002, 'columns[0].field: no field "nope"'],
      ['an unknown value field', { values: [{ field: 'nope', aggregation: 'SUM' }] }, 10002, 'values[0].field: no field "nope"'],
      ['an unknown aggregation', { values: [{ field: 'amount', aggregation: 'median' }] }, 10002, 'values[0].aggregation: unknown aggregation "median"'],
      ['SUM of a text field', { values: [{ field: 'title', aggregation: 'SUM' }] }, 10002, 'values[0] "Title": SUM needs a number field'],
      ['a field value without aggregation', { values: [{ field: 'amount' }] }, 10001, 'values[0].aggregation is required'],
      ['record_count with another aggregation', { values: [{ field: 'record_count', aggregation: 'SUM' }] }, 10002, 'values[0].aggregation: record_count is a COUNT'],
      ['no values', { rows: [{ field: 'status' }] }, 10001, 'values: at least one value'],
      ['an empty values list', { values: [] }, 10001, 'values: at least one value'],
      ['a page size over 1000', { values: [{ field: 'record_count' }], pageSize: 1001 }, 10002, 'body.pageSize'],
      ['a granularity on a non-date field', { rows: [{ field: 'status', granularity: 3 }], values: [{ field: 'record_count' }] }, 10002, 'rows[0].granularity: only Date and DateTime'],
      ['an unknown granularity', { rows: [{ field: 'due', granularity: 6 }], values: [{ field: 'record_count' }] }, 10002, 'body.rows[0].granularity'],
      ['a field that holds no value as a dimension', { rows: [{ field: 'section' }], values: [{ field: 'record_count' }] }, 10002, 'rows[0].field: cannot group by "Section"'],
      ['a granularity on a member system field', { rows: [{ field: '_owner', granularity: 3 }], values: [{ field: 'record_count' }] }, 10002, 'rows[0].granularity: only Date and DateTime'],
      ['a layout field as a value', { values: [{ field: 'section', aggregation: 'COUNT' }] }, 10002, 'values[0].field: "Section"'],
      ['a field twice among the dimensions', { rows: [{ field: 'status' }], columns: [{ field: 'status' }], values: [{ field: 'record_count' }] }, 10002, 'columns[0].field: the field is already used by rows[0]'],
      ['a field twice among the values', { values: [{ field: 'amount', aggregation: 'SUM' }, { field: 'amount', aggregation: 'AVG' }] }, 10002, 'values[1].field: the field is already used by values[0]'],
      ['a sort by something not in the pivot', { values: [{ field: 'record_count' }], sorts: [{ field: 'title' }] }, 10002, 'sorts[0].field: "title" is neither'],
      ['a bad filter', { values: [{ field: 'record_count' }], filter: { type: 'condition', field: 'nope', operator: 'eq', value: 1 } }, 10002, 'filter.field: no field "nope"'],
    ];

    describe('refuses a bad request with a message naming the part', () => {
      it.each(ERRORS)('%s', async (_what, body, code, message) => {
        const response = await pivot(body);
        expect(response.status).toBe(400);
        expect(response.body.error_code).toBe(code);
        expect(response.body.error_msg).toContain(message);
      });
    });
  },
  {},
  { clock: () => NOW },
);

describeApi(
  'record pivots in a time zone with daylight saving',
  (ctx) => {
    it('buckets date-times by the local day and month, daylight saving included', async () => {
      const sheet = await makeSheet(ctx, 'Zoned', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }, { name: 'At', alias: 'at', type: '16' }]);
      await createRecords(ctx, sheet, [
        // 04:30Z on the day New York moves to daylight time is still 23:30 (EST) of the day before.
        { title: 'dst', at: '2026-03-08T04:30:00Z' },
        { title: 'edt', at: '2026-03-31T23:30:00Z' },
        { title: 'est', at: '2026-01-01T03:00:00Z' },
      ]);
      const url = `/v3/app/worksheets/${sheet.id}/rows/pivot`;
      const days = await ctx.call<PivotData>('POST', url, { rows: [{ field: 'at' }], values: [{ field: 'record_count' }] });
      expect(days.body.error_msg).toBe('');
      expect(days.body.data.pivot.map((g) => Object.values(g.rows)[0])).toEqual(['2025-12-31', '2026-03-07', '2026-03-31']);
      const months = await ctx.call<PivotData>('POST', url, { rows: [{ field: 'at', granularity: 3 }], values: [{ field: 'record_count' }] });
      expect(months.body.data.pivot.map((g) => [Object.values(g.rows)[0], g.values.record_count])).toEqual([['2025-12', 1], ['2026-03', 2]]);
    });
  },
  { TIME_ZONE: 'America/New_York' },
  { clock: () => NOW },
);
