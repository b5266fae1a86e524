import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Computed fields of worksheets over COMPUTE_INLINE_MAX_ROWS records (2 here) are computed in the
 * background after the structure change commits, marked `recomputing` meanwhile; a mark left by a
 * stopped process is resumed.
 */
describeApi(
  'computed fields of large worksheets: computed in the background',
  (ctx) => {
    let sheet: Sheet;
    const list = async () => (await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { sorts: [{ field: 'n', isAsc: true }] })).body.data.rows;
    const fieldOut = async (alias: string) => {
      const got = await ctx.call<{ fields: Array<{ alias: string; recomputing?: boolean }> }>('GET', `/v3/app/worksheets/${sheet.id}`);
      return got.body.data.fields.find((f) => f.alias === alias)!;
    };

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Big', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'N', alias: 'n', type: '6' },
      ]);
      const made = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows: [1, 2, 3, 4, 5].map((n) => ({ fields: [{ id: 'title', value: `r${n}` }, { id: 'n', value: n }] })) });
      expect(made.body.error_msg).toBe('');
    });

    it('computes a new formula for every record after the change, then clears the mark', async () => {
      const added = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { addFields: [{ name: 'Double', alias: 'double', type: '31', expression: '$n$ * 2' }] });
      expect(added.body.error_msg).toBe('');
      await ctx.app.recompute.idle();
      const ids = await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${sheet.id}`);
      const double = ids.body.data.fields.find((f) => f.alias === 'double')!.id;
      expect((await list()).map((row) => valueOf(row, double))).toEqual(['2', '4', '6', '8', '10']);
      expect(await fieldOut('double')).not.toHaveProperty('recomputing');
    });

    it('shows a field still marked, and resumes it at start', async () => {
      const added = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { addFields: [{ name: 'Triple', alias: 'triple', type: '31', expression: '$n$ * 3' }] });
      expect(added.body.error_msg).toBe('');
      await ctx.app.recompute.idle();
      // As a process stopped mid-way would leave it: the mark set, the values not computed.
      const row = await ctx.database.db.selectFrom('fields').select(['id', 'config']).where('worksheet_id', '=', sheet.id).where('alias', '=', 'triple').executeTakeFirstOrThrow();
      await ctx.database.db.updateTable('fields').set({ config: JSON.stringify({ ...JSON.parse(row.config), recomputing: true }) }).where('id', '=', row.id).execute();
      await ctx.database.db.updateTable(`ws_${sheet.id}` as never).set({ [row.id]: null } as never).execute();
      await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { remark: 'drop the cached schema' });
      expect(await fieldOut('triple')).toMatchObject({ recomputing: true });
      await ctx.app.recompute.resume();
      await ctx.app.recompute.idle();
      await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { remark: 'and again' });
      expect(await fieldOut('triple')).not.toHaveProperty('recomputing');
      expect((await list()).map((r) => valueOf(r, row.id))).toEqual(['3', '6', '9', '12', '15']);
    });
  },
  { COMPUTE_INLINE_MAX_ROWS: '2' },
);
