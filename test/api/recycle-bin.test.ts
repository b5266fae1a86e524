import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface BinRow { id: string; _deletedAt: string; _deletedBy: { accountId: string; fullname: string }; fields?: Array<{ id: string; value: unknown }> }
interface Page { rows: BinRow[]; total: number }

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T09:00:00Z');
let clockNow = START;

/** The recycle bin: listed with `recycleBin: true`, emptied of selected records, and swept after RECYCLE_BIN_DAYS. */
describeApi(
  'records: the recycle bin',
  (ctx) => {
    let sheet: Sheet;
    const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
    const bin = async (body: Record<string, unknown> = {}) => {
      const listed = await ctx.call<Page>('POST', `${rows()}/list`, { recycleBin: true, ...body });
      expect(listed.body.error_msg).toBe('');
      return listed.body.data;
    };

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Bin', [
        { name: 'Name', alias: 'title', type: '2', isTitle: true },
        { name: 'Kind', alias: 'kind', type: '2' },
        { name: 'Files', alias: 'files', type: '14' },
      ]);
    });

    it('lists deleted records, latest deleted first, with when and by whom; the live list leaves them out', async () => {
      clockNow = START;
      const a = await createRecord(ctx, sheet, [{ id: 'title', value: 'A' }, { id: 'kind', value: 'x' }]);
      const b = await createRecord(ctx, sheet, [{ id: 'title', value: 'B' }, { id: 'kind', value: 'y' }]);
      const kept = await createRecord(ctx, sheet, [{ id: 'title', value: 'Kept' }]);
      clockNow = START + 1_000;
      expect((await ctx.call('DELETE', `${rows()}/${a}`)).body.error_msg).toBe('');
      clockNow = START + 2_000;
      expect((await ctx.call('DELETE', `${rows()}/${b}`)).body.error_msg).toBe('');
      const page = await bin();
      expect(page.total).toBe(2);
      expect(page.rows.map((r) => r.id)).toEqual([b, a]);
      expect(page.rows[0]).toMatchObject({ _deletedAt: new Date(START + 2_000).toISOString(), _deletedBy: { accountId: 'user-api', fullname: 'API' } });
      const live = await ctx.call<Page>('POST', `${rows()}/list`, {});
      expect(live.body.data.rows.map((r) => r.id)).toEqual([kept]);
      // Filters, sorts and the flat shape apply as on the live list.
      const filtered = await bin({ filter: { type: 'condition', field: 'kind', operator: 'eq', value: 'x' } });
      expect(filtered.rows.map((r) => r.id)).toEqual([a]);
      expect(filtered.total).toBe(1);
      const sorted = await bin({ sorts: [{ field: 'title', isAsc: true }] });
      expect(sorted.rows.map((r) => r.id)).toEqual([a, b]);
      const flat = await bin({ useFieldIdAsKey: false });
      expect(flat.rows[0]).toMatchObject({ id: b, title: 'B', _deletedBy: { accountId: 'user-api' } });
      // A restored record leaves the bin.
      expect((await ctx.call('POST', `${rows()}/${a}/restore`)).body.error_msg).toBe('');
      expect((await bin()).rows.map((r) => r.id)).toEqual([b]);
    });

    it('empties selected records from the bin with a permanent batch delete', async () => {
      const c = await createRecord(ctx, sheet, [{ id: 'title', value: 'C' }]);
      expect((await ctx.call('DELETE', `${rows()}/${c}`)).body.error_msg).toBe('');
      expect((await bin()).rows.map((r) => r.id)).toContain(c);
      const purged = await ctx.call<{ successfulRowIds: string[] }>('DELETE', `${rows()}/batch`, { rowIds: [c], permanent: true });
      expect(purged.body.data.successfulRowIds).toEqual([c]);
      expect((await bin()).rows.map((r) => r.id)).not.toContain(c);
      expect((await ctx.call('POST', `${rows()}/${c}/restore`)).body.error_code).toBe(10007);
    });

    it('removes records kept longer than RECYCLE_BIN_DAYS for good, with their files and log, and no others', async () => {
      clockNow = START;
      const old = await createRecord(ctx, sheet, [{ id: 'title', value: 'Old' }, { id: 'files', value: [{ name: 'a.txt', url: `data:text/plain;base64,${Buffer.from('old file').toString('base64')}` }] }]);
      const recent = await createRecord(ctx, sheet, [{ id: 'title', value: 'Recent' }]);
      expect((await ctx.call('DELETE', `${rows()}/${old}`)).body.error_msg).toBe('');
      clockNow = START + 5 * DAY;
      expect((await ctx.call('DELETE', `${rows()}/${recent}`)).body.error_msg).toBe('');
      const filesOf = async (id: string) => ctx.database.db.selectFrom('files').select('storage_key').where('row_id', '=', id).execute();
      expect(await filesOf(old)).toHaveLength(1);

      // Ten days short of the limit: nothing is due.
      clockNow = START + 50 * DAY;
      expect(await ctx.app.recycleBin.sweep()).toBe(0);
      // Past it for `old` only.
      clockNow = START + 60 * DAY + 1;
      const inBinBefore = (await bin()).rows.map((r) => r.id);
      expect(await ctx.app.recycleBin.sweep()).toBe(1);
      const inBin = (await bin()).rows.map((r) => r.id);
      expect(inBin).toEqual(inBinBefore.filter((id) => id !== old));
      expect(inBin).toContain(recent);
      expect(await filesOf(old)).toEqual([]);
      expect((await ctx.call('GET', `${rows()}/${old}/logs`)).body.error_code).toBe(10007);
      expect((await ctx.call('POST', `${rows()}/${old}/restore`)).body.error_code).toBe(10007);
      expect((await ctx.call('POST', `${rows()}/${recent}/restore`)).body.error_msg).toBe('');
    });
  },
  // No worker runs the sweep jobs beside the test, which sweeps by hand on its clock.
  { WORKERS: '0' },
  { clock: () => clockNow },
);
