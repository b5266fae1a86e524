import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface FlatRow {
  id: string;
  autoid: number;
  title: string;
  _createdAt?: string;
}

/** `autoid`: each record's number in its worksheet, in creation order, never reused; a system field for filters and sorts. */
describeApi('record numbers (autoid)', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const list = async (body: Record<string, unknown>) => {
    const response = await ctx.call<{ rows: FlatRow[] }>('POST', `${rows()}/list`, { useFieldIdAsKey: false, includeSystemFields: true, pageSize: 100, ...body });
    expect(response.body.error_msg).toBe('');
    return response.body.data.rows.map((row) => [row.title, row.autoid]);
  };

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Numbered', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    const batch = await ctx.call('POST', `${rows()}/batch`, { rows: ['a', 'b', 'c'].map((title) => ({ fields: [{ id: 'title', value: title }] })) });
    expect(batch.body.error_msg).toBe('');
    const single = await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'd' }] });
    expect(single.body.error_msg).toBe('');
  });

  it('numbers records 1, 2, 3… in creation order, batches in their order', async () => {
    expect(await list({ sorts: [{ field: 'autoid', isAsc: true }] })).toEqual([['a', 1], ['b', 2], ['c', 3], ['d', 4]]);
  });

  it('never reuses the number of a deleted record', async () => {
    const [, , c] = (await ctx.call<{ rows: FlatRow[] }>('POST', `${rows()}/list`, { useFieldIdAsKey: false, sorts: [{ field: 'autoid', isAsc: true }] })).body.data.rows;
    expect((await ctx.call('DELETE', `${rows()}/${c.id}`, { permanent: true })).body.error_msg).toBe('');
    expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'e' }] })).body.error_msg).toBe('');
    expect(await list({ sorts: [{ field: 'autoid', isAsc: false }] })).toEqual([['e', 5], ['d', 4], ['b', 2], ['a', 1]]);
  });

  it('filters by autoid as a number', async () => {
    const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'autoid', operator: 'between', value: [2, '4'] }] };
    expect(await list({ filter, sorts: [{ field: 'autoid', isAsc: true }] })).toEqual([['b', 2], ['d', 4]]);
  });

  it('shows autoid with the system fields of a flat get', async () => {
    const [first] = (await ctx.call<{ rows: FlatRow[] }>('POST', `${rows()}/list`, { useFieldIdAsKey: false, sorts: [{ field: 'autoid', isAsc: true }] })).body.data.rows;
    const got = await ctx.call<FlatRow>('GET', `${rows()}/${first.id}?useFieldIdAsKey=false&includeSystemFields=true`);
    expect(got.body.data).toMatchObject({ id: first.id, autoid: 1, title: 'a' });
  });
});

describeApi('record numbers of a database made before them (migration 0005)', (ctx) => {
  it('numbers the existing records in creation order, and the next record follows them', async () => {
    const sheet = await makeSheet(ctx, 'Older', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    const rows = `/v3/app/worksheets/${sheet.id}/rows`;
    for (const title of ['first', 'second', 'third']) expect((await ctx.call('POST', rows, { fields: [{ id: 'title', value: title }] })).body.error_msg).toBe('');
    // The database as it was before the migration: no column, no counter, the migration not applied.
    await sql`ALTER TABLE ${sql.table(`ws_${sheet.id}`)} DROP COLUMN _autoid`.execute(ctx.database.db);
    await ctx.database.db.updateTable('row_counts').set({ numbered: 0 }).where('worksheet_id', '=', sheet.id).execute();
    await ctx.database.db.deleteFrom('tabularium_migrations' as never).where('name' as never, '=', '0005-record-sequence' as never).execute();

    expect(await migrateToLatest(ctx.database)).toEqual(['0005-record-sequence']);
    expect((await ctx.call('POST', rows, { fields: [{ id: 'title', value: 'fourth' }] })).body.error_msg).toBe('');
    const listed = await ctx.call<{ rows: FlatRow[] }>('POST', `${rows}/list`, { useFieldIdAsKey: false, includeSystemFields: true, sorts: [{ field: 'autoid', isAsc: true }] });
    const numbered = listed.body.data.rows;
    expect(numbered.map((row) => row.autoid)).toEqual([1, 2, 3, 4]);
    expect(numbered[3].title).toBe('fourth');
    // Numbered by creation time (records made in the same millisecond have no order among themselves).
    const times = numbered.map((row) => Date.parse(String(row._createdAt)));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(numbered.slice(0, 3).map((row) => row.title).sort()).toEqual(['first', 'second', 'third']);
  });
});
