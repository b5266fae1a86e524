import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type PivotData, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Pivot dimensions over JSON arrays (multiple choices, members, departments): one group per element,
 * a record counting in each of its groups, names instead of ids; and over system fields. The clock
 * is fixed at 2026-03-14 10:00 UTC, so every record is created then.
 */
const NOW = Date.UTC(2026, 2, 14, 10, 0, 0);

type Body = Record<string, unknown>;

describeApi(
  'record pivots by arrays and system fields',
  (ctx) => {
    let sheet: Sheet;
    const pivot = async (body: Body) => {
      const response = await ctx.call<PivotData>('POST', `/v3/app/worksheets/${sheet.id}/rows/pivot`, body);
      expect(response.body.error_msg).toBe('');
      return response.body.data;
    };
    const groupsOf = (data: PivotData) => data.pivot.map((g) => [...Object.values(g.rows), ...Object.values(g.columns), ...Object.values(g.values)]);

    beforeAll(async () => {
      const org = ctx.setup.organizationId;
      await ctx.database.db.insertInto('accounts').values({ id: 'acc-ann', organization_id: org, email: 'ann@example.com', fullname: 'Ann', status: 1, created_at: 1 }).execute();
      await ctx.database.db.insertInto('organization_members').values({ organization_id: org, account_id: 'acc-ann', is_admin: 0, status: 1, joined_at: 1 }).execute();
      await ctx.database.db
        .insertInto('departments')
        .values([
          { id: 'dep-sales', organization_id: org, parent_id: null, name: 'Sales', created_at: 1 },
          { id: 'dep-ops', organization_id: org, parent_id: null, name: 'Ops', created_at: 1 },
        ])
        .execute();
      sheet = await makeSheet(ctx, 'Array pivots', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Amount', alias: 'amount', type: '6' },
        { name: 'Tags', alias: 'tags', type: '10', options: [{ value: 'red' }, { value: 'blue' }] },
        { name: 'Who', alias: 'who', type: '26', subType: 1 },
        { name: 'Dept', alias: 'dept', type: '27', subType: 1 },
      ]);
      const owner = ctx.setup.owner.accountId;
      const records: Body[] = [
        { title: 'A', amount: 10, tags: ['red'], who: [owner], dept: ['dep-sales'] },
        { title: 'B', amount: 20, tags: ['red', 'blue'], who: [owner, 'acc-ann'], dept: ['dep-sales', 'dep-ops'] },
        { title: 'C', amount: 30, tags: [], who: ['acc-ann'] },
        { title: 'D', amount: 40 },
      ];
      const rows = records.map((values) => ({ fields: Object.entries(values).map(([id, value]) => ({ id, value })) }));
      const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows });
      expect(created.body.error_msg).toBe('');
    });

    const counted = { values: [{ field: 'record_count' }, { field: 'amount', aggregation: 'SUM' }] };

    it('a multiple choice makes one group per option, records counting in each of theirs; no option is the empty group', async () => {
      const data = await pivot({ rows: [{ field: 'tags' }], ...counted, includeSummary: true });
      // Empty first, then in option order.
      expect(groupsOf(data)).toEqual([
        [null, 2, 70],
        ['red', 2, 30],
        ['blue', 1, 20],
      ]);
      // The summary counts each record once.
      expect(data.summary).toEqual({ record_count: 4, [sheet.field.amount]: 100 });
    });

    it('leaves out records without any element when includeEmpty is false, in the summary too', async () => {
      const data = await pivot({ rows: [{ field: 'tags', includeEmpty: false }], ...counted, includeSummary: true });
      expect(groupsOf(data)).toEqual([
        ['red', 2, 30],
        ['blue', 1, 20],
      ]);
      expect(data.summary).toEqual({ record_count: 2, [sheet.field.amount]: 30 });
    });

    it('members and departments show their names', async () => {
      const byMember = await pivot({ rows: [{ field: 'who', includeEmpty: false }], values: [{ field: 'record_count' }], sorts: [{ field: 'record_count', isAsc: false }] });
      expect(groupsOf(byMember).sort()).toEqual([
        ['Ann', 2],
        ['Owner', 2],
      ]);
      const byDept = await pivot({ rows: [{ field: 'dept' }], values: [{ field: 'amount', aggregation: 'SUM' }] });
      // Groups of ids sort by id, which differs between engines' collations only in case: compare as a set.
      expect(groupsOf(byDept).sort((a, b) => String(a[0] ?? '').localeCompare(String(b[0] ?? '')))).toEqual([
        [null, 70],
        ['Ops', 20],
        ['Sales', 30],
      ]);
    });

    it('crosses two array dimensions', async () => {
      const data = await pivot({ rows: [{ field: 'tags', includeEmpty: false }], columns: [{ field: 'dept', includeEmpty: false }], values: [{ field: 'record_count' }] });
      expect(groupsOf(data).sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`))).toEqual([
        ['blue', 'Ops', 1],
        ['blue', 'Sales', 1],
        ['red', 'Ops', 1],
        ['red', 'Sales', 2],
      ]);
    });

    it('refuses to group by the record id', async () => {
      const response = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/pivot`, { rows: [{ field: 'rowid' }], values: [{ field: 'record_count' }] });
      expect(response.body.error_code).toBe(10002);
      expect(response.body.error_msg).toContain('rows[0].field: cannot group by the record id');
    });

    it('groups by system fields: the creation month and the owner by name', async () => {
      const data = await pivot({ rows: [{ field: 'ctime', granularity: 3 }], columns: [{ field: '_owner' }], values: [{ field: 'record_count' }] });
      expect(data.meta.rows).toEqual([{ field: '_createdAt', displayName: '_createdAt', granularity: 3, includeEmpty: true }]);
      expect(data.pivot).toEqual([{ rows: { _createdAt: '2026-03' }, columns: { _owner: 'API' }, values: { record_count: 4 } }]);
    });
  },
  {},
  { clock: () => NOW },
);
