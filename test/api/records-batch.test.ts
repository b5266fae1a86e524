import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowCountSums } from '../../src/modules/records/row-counts.js';
import { rowTableName } from '../../src/modules/worksheets/worksheet-schema.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, valueOf, type Sheet, type WireRecord, RECORD_TEST_FIELDS } from '../helpers/record-fixtures.js';

/** Batch endpoints: create, update and delete many records, all or none. */

interface BatchOutcome {
  successfulRowIds: string[];
  failedRowIds: string[];
}

const titled = (title: string, more: Array<{ id: string; value: unknown }> = []) => ({ fields: [{ id: 'title', value: title }, ...more] });

describeApi('records: batch create', (ctx) => {
  let sheet: Sheet;
  const batch = () => `/v3/app/worksheets/${sheet.id}/rows/batch`;
  const create = (rows: unknown[]) => ctx.call<{ rowIds: string[] }>('POST', batch(), { rows, triggerWorkflow: false });
  const total = async () => (await ctx.call<{ total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 1 })).body.data.total;
  /** What the database holds: the kept row count and the rows actually in the table. */
  const stored = async () => {
    const counted = { row_count: (await rowCountSums(ctx.database.db, ctx.database.reader, ctx.database.dialect, [sheet.id])).live };
    const live = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(rowTableName(sheet.id))} WHERE _deleted_at IS NULL`.execute(ctx.database.db);
    return { rowCount: Number(counted.row_count), liveRows: Number(live.rows[0].n) };
  };

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Batch create', RECORD_TEST_FIELDS);
  });

  it('creates every row and answers their ids in request order', async () => {
    const response = await create([titled('B1', [{ id: 'amount', value: 1 }]), titled('B2', [{ id: 'code', value: 'C-2' }]), titled('B3')]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, error_code: 1 });
    const ids = response.body.data.rowIds;
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    const records = await Promise.all(ids.map(async (id) => (await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`)).body.data));
    expect(records.map((r) => valueOf(r, sheet.field.title))).toEqual(['B1', 'B2', 'B3']);
    expect(valueOf(records[0], sheet.field.amount)).toBe('1');
    expect(valueOf(records[1], sheet.field.code)).toBe('C-2');
    expect(records.map((r) => valueOf(r, sheet.field.seq))).toEqual(['1', '2', '3']);
    expect(await total()).toBe(3);
    expect(await stored()).toEqual({ rowCount: 3, liveRows: 3 });
  });

  it('refuses zero rows with 10001', async () => {
    const response = await create([]);
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe(10001);
    expect(response.body.error_msg).toContain('rows');
  });

  it('refuses a body without rows with 10001', async () => {
    const response = await ctx.call('POST', batch(), {});
    expect(response.body.error_code).toBe(10001);
    expect(response.body.error_msg).toContain('rows');
  });

  it('takes 1000 rows and refuses 1001 with 10001, writing nothing', async () => {
    const before = await total();
    const tooMany = await create(Array.from({ length: 1001 }, (_, i) => titled(`Over ${i}`)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error_code).toBe(10001);
    expect(tooMany.body.error_msg).toContain('rows');
    expect(await total()).toBe(before);
    const full = await create(Array.from({ length: 1000 }, (_, i) => titled(`Full ${i}`, [{ id: 'amount', value: i }])));
    expect(full.body.error_code).toBe(1);
    expect(full.body.data.rowIds).toHaveLength(1000);
    expect(await total()).toBe(before + 1000);
    expect(await stored()).toEqual({ rowCount: before + 1000, liveRows: before + 1000 });
  });

  describe('all or none', () => {
    it('writes nothing when one row has a bad value (10002 naming the row)', async () => {
      const before = await stored();
      const response = await create([titled('OK 1'), titled('OK 2'), titled('Bad', [{ id: 'amount', value: 'not a number' }])]);
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(10002);
      expect(response.body.error_msg).toContain('rows[2]');
      expect(response.body.error_msg).toContain('Amount');
      expect(await stored()).toEqual(before);
      expect(await total()).toBe(before.rowCount);
    });

    it('writes nothing when one row misses the required field (430019)', async () => {
      const before = await stored();
      const response = await create([titled('OK'), { fields: [{ id: 'notes', value: 'untitled' }] }]);
      expect(response.body.error_code).toBe(430019);
      expect(response.body.error_msg).toContain('rows[1]');
      expect(response.body.error_msg).toContain('Title');
      expect(await stored()).toEqual(before);
    });

    it('writes nothing when one row names an unknown field (10002) or no field id (10001)', async () => {
      const before = await stored();
      const unknown = await create([titled('OK'), titled('X', [{ id: 'mystery', value: 1 }])]);
      expect(unknown.body.error_code).toBe(10002);
      expect(unknown.body.error_msg).toContain('mystery');
      const missing = await create([titled('OK'), { fields: [{ value: 'no id' }] }]);
      expect(missing.body.error_code).toBe(10001);
      expect(await stored()).toEqual(before);
    });

    it('refuses two rows with the same unique value with 100005, writing nothing', async () => {
      const before = await stored();
      const response = await create([titled('D1', [{ id: 'code', value: 'DUP' }]), titled('D2'), titled('D3', [{ id: 'code', value: 'DUP' }])]);
      expect(response.status).toBe(409);
      expect(response.body.error_code).toBe(100005);
      expect(response.body.error_msg).toContain('Code');
      expect(await stored()).toEqual(before);
    });

    it('refuses a row whose unique value an existing record holds with 100005, writing nothing', async () => {
      expect((await create([titled('Holder', [{ id: 'code', value: 'HELD' }])])).body.error_code).toBe(1);
      const before = await stored();
      const response = await create([titled('New'), titled('Clash', [{ id: 'code', value: 'HELD' }])]);
      expect(response.body.error_code).toBe(100005);
      expect(await stored()).toEqual(before);
    });

    it('does not use up auto numbers on a refused batch', async () => {
      const first = await create([titled('Numbered A')]);
      const firstSeq = Number(valueOf((await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${first.body.data.rowIds[0]}`)).body.data, sheet.field.seq));
      expect((await create([titled('R'), { fields: [] }])).body.error_code).toBe(430019);
      const next = await create([titled('Numbered B'), titled('Numbered C')]);
      const seqs = await Promise.all(
        next.body.data.rowIds.map(async (id) => valueOf((await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`)).body.data, sheet.field.seq)),
      );
      expect(seqs).toEqual([String(firstSeq + 1), String(firstSeq + 2)]);
    });
  });
});

describeApi('records: batch update', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const update = (body: unknown) => ctx.call<BatchOutcome>('PATCH', `${rows()}/batch`, body);
  const read = async (id: string) => (await ctx.call<WireRecord>('GET', `${rows()}/${id}`)).body.data;
  const seed = async (...records: Array<ReturnType<typeof titled>>) => {
    const response = await ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, { rows: records });
    expect(response.body.error_code).toBe(1);
    return response.body.data.rowIds;
  };

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Batch update', RECORD_TEST_FIELDS);
  });

  it('applies the same values to every rowId and keeps the unsent fields', async () => {
    const ids = await seed(titled('S1', [{ id: 'amount', value: 1 }]), titled('S2', [{ id: 'amount', value: 2 }]), titled('S3', [{ id: 'amount', value: 3 }]));
    const response = await update({ rowIds: ids.slice(0, 2), fields: [{ id: 'notes', value: 'shared' }], triggerWorkflow: false });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ successfulRowIds: ids.slice(0, 2), failedRowIds: [] });
    const [a, b, c] = await Promise.all(ids.map(read));
    expect([valueOf(a, sheet.field.notes), valueOf(b, sheet.field.notes), valueOf(c, sheet.field.notes)]).toEqual(['shared', 'shared', '']);
    expect([valueOf(a, sheet.field.title), valueOf(b, sheet.field.title)]).toEqual(['S1', 'S2']);
    expect([valueOf(a, sheet.field.amount), valueOf(b, sheet.field.amount)]).toEqual(['1', '2']);
    expect(a._updatedBy).toEqual({ accountId: 'user-api', fullname: 'API' });
  });

  it('applies per-row values with rows:[{id, fields}]', async () => {
    const ids = await seed(titled('P1'), titled('P2'));
    const response = await update({
      rows: [
        { id: ids[0], fields: [{ id: 'amount', value: 10 }] },
        { id: ids[1], fields: [{ id: 'amount', value: 20 }, { id: 'title', value: 'P2 renamed' }] },
      ],
    });
    expect(response.body.data).toEqual({ successfulRowIds: ids, failedRowIds: [] });
    const [a, b] = await Promise.all(ids.map(read));
    expect(valueOf(a, sheet.field.amount)).toBe('10');
    expect(valueOf(a, sheet.field.title)).toBe('P1');
    expect(valueOf(b, sheet.field.amount)).toBe('20');
    expect(valueOf(b, sheet.field.title)).toBe('P2 renamed');
  });

  it('reports unknown and deleted ids in failedRowIds and updates the rest', async () => {
    const ids = await seed(titled('F1'), titled('F2'), titled('F3'));
    expect((await ctx.call('DELETE', `${rows()}/${ids[1]}`)).body.error_code).toBe(1);
    const sameValues = await update({ rowIds: [ids[0], ids[1], 'no-such-row', ids[2]], fields: [{ id: 'notes', value: 'partial' }] });
    expect(sameValues.body.data).toEqual({ successfulRowIds: [ids[0], ids[2]], failedRowIds: [ids[1], 'no-such-row'] });
    expect(valueOf(await read(ids[2]), sheet.field.notes)).toBe('partial');
    const perRow = await update({
      rows: [
        { id: 'ghost', fields: [{ id: 'notes', value: 'x' }] },
        { id: ids[0], fields: [{ id: 'notes', value: 'per row' }] },
      ],
    });
    expect(perRow.body.data).toEqual({ successfulRowIds: [ids[0]], failedRowIds: ['ghost'] });
  });

  it('writes nothing when any row has a bad value', async () => {
    const ids = await seed(titled('A1', [{ id: 'amount', value: 1 }]), titled('A2', [{ id: 'amount', value: 2 }]));
    const perRow = await update({
      rows: [
        { id: ids[0], fields: [{ id: 'amount', value: 100 }] },
        { id: ids[1], fields: [{ id: 'amount', value: 'lots' }] },
      ],
    });
    expect(perRow.status).toBe(400);
    expect(perRow.body.error_code).toBe(10002);
    expect(perRow.body.error_msg).toContain('rows[1]');
    const sameValues = await update({ rowIds: ids, fields: [{ id: 'notes', value: 'ok' }, { id: 'amount', value: {} }] });
    expect(sameValues.body.error_code).toBe(10002);
    const [a, b] = await Promise.all(ids.map(read));
    expect([valueOf(a, sheet.field.amount), valueOf(b, sheet.field.amount)]).toEqual(['1', '2']);
    expect([valueOf(a, sheet.field.notes), valueOf(b, sheet.field.notes)]).toEqual(['', '']);
  });

  it('refuses emptying the required field with 430019, writing nothing', async () => {
    const ids = await seed(titled('R1'), titled('R2'));
    const response = await update({
      rows: [
        { id: ids[0], fields: [{ id: 'notes', value: 'first' }] },
        { id: ids[1], fields: [{ id: 'title', value: '' }] },
      ],
    });
    expect(response.body.error_code).toBe(430019);
    expect(response.body.error_msg).toContain('Title');
    expect(valueOf(await read(ids[0]), sheet.field.notes)).toBe('');
  });

  it('refuses a unique clash with 100005 and rolls back the rows already changed', async () => {
    const ids = await seed(titled('U1', [{ id: 'code', value: 'U-1' }]), titled('U2', [{ id: 'code', value: 'U-2' }]), titled('U3'));
    const perRow = await update({
      rows: [
        { id: ids[2], fields: [{ id: 'code', value: 'U-3' }, { id: 'notes', value: 'changed first' }] },
        { id: ids[1], fields: [{ id: 'code', value: 'U-1' }] },
      ],
    });
    expect(perRow.status).toBe(409);
    expect(perRow.body.error_code).toBe(100005);
    expect(perRow.body.error_msg).toContain('Code');
    const third = await read(ids[2]);
    expect(valueOf(third, sheet.field.code)).toBe('');
    expect(valueOf(third, sheet.field.notes)).toBe('');
    const sameValues = await update({ rowIds: [ids[0], ids[1]], fields: [{ id: 'code', value: 'U-SAME' }] });
    expect(sameValues.body.error_code).toBe(100005);
    expect(valueOf(await read(ids[0]), sheet.field.code)).toBe('U-1');
  });

  it('refuses an unknown field with 10002 and a missing field id with 10001', async () => {
    const ids = await seed(titled('K1'));
    const unknown = await update({ rowIds: ids, fields: [{ id: 'phantom', value: 1 }] });
    expect(unknown.body.error_code).toBe(10002);
    expect(unknown.body.error_msg).toContain('phantom');
    const missing = await update({ rows: [{ id: ids[0], fields: [{ value: 1 }] }] });
    expect(missing.body.error_code).toBe(10001);
  });

  it('refuses malformed bodies with 10001', async () => {
    const ids = await seed(titled('M1'));
    const cases: Array<[unknown, string]> = [
      [{}, 'rowIds'],
      [{ rowIds: ids }, 'fields'],
      [{ rowIds: [], fields: [{ id: 'notes', value: 'x' }] }, 'rowIds'],
      [{ rowIds: ids, fields: [], rows: [{ id: ids[0], fields: [] }] }, 'rows'],
      [{ rowIds: Array.from({ length: 1001 }, (_, i) => `id-${i}`), fields: [{ id: 'notes', value: 'x' }] }, 'rowIds'],
    ];
    for (const [body, named] of cases) {
      const response = await update(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error_code).toBe(10001);
      expect(response.body.error_msg).toContain(named);
    }
  });

  it('refuses the same id twice in rows with 10002', async () => {
    const ids = await seed(titled('T1'));
    const response = await update({
      rows: [
        { id: ids[0], fields: [{ id: 'notes', value: 'a' }] },
        { id: ids[0], fields: [{ id: 'notes', value: 'b' }] },
      ],
    });
    expect(response.body.error_code).toBe(10002);
  });
});

describeApi('records: batch delete', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const remove = (body: unknown) => ctx.call<BatchOutcome>('DELETE', `${rows()}/batch`, body);
  const total = async () => (await ctx.call<{ total: number }>('POST', `${rows()}/list`, {})).body.data.total;
  const inTable = async (ids: string[]) => {
    const found = await sql<{ id: string; _deleted_at: unknown }>`SELECT id, _deleted_at FROM ${sql.table(rowTableName(sheet.id))} WHERE id IN (${sql.join(ids)})`.execute(ctx.database.db);
    return found.rows;
  };
  const seed = async (count: number) => {
    const response = await ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, { rows: Array.from({ length: count }, (_, i) => titled(`Del ${i}`)) });
    return response.body.data.rowIds;
  };

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Batch delete', RECORD_TEST_FIELDS);
  });

  it('moves records to the recycle bin by default and reports unknown ids as failed', async () => {
    const ids = await seed(3);
    const before = await total();
    const response = await remove({ rowIds: [ids[0], 'no-such-row', ids[1]] });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ successfulRowIds: [ids[0], ids[1]], failedRowIds: ['no-such-row'] });
    expect(await total()).toBe(before - 2);
    expect((await ctx.call('GET', `${rows()}/${ids[0]}`)).body.error_code).toBe(10007);
    expect((await ctx.call('GET', `${rows()}/${ids[2]}`)).body.error_code).toBe(1);
    const kept = await inTable(ids.slice(0, 2));
    expect(kept).toHaveLength(2);
    for (const row of kept) expect(row._deleted_at).not.toBeNull();
  });

  it('reports records already deleted as failed', async () => {
    const ids = await seed(2);
    expect((await remove({ rowIds: [ids[0]] })).body.data.successfulRowIds).toEqual([ids[0]]);
    const again = await remove({ rowIds: ids });
    expect(again.body.data).toEqual({ successfulRowIds: [ids[1]], failedRowIds: [ids[0]] });
  });

  it.each([[true], ['true'], ['True'], [1]])('removes records for good with permanent %j', async (permanent) => {
    const ids = await seed(2);
    const before = await total();
    const response = await remove({ rowIds: ids, permanent });
    expect(response.body.data).toEqual({ successfulRowIds: ids, failedRowIds: [] });
    expect(await inTable(ids)).toEqual([]);
    expect(await total()).toBe(before - 2);
  });

  it('keeps the row count right when permanently deleting records already in the recycle bin', async () => {
    const ids = await seed(2);
    const before = await total();
    await remove({ rowIds: [ids[0]] });
    expect(await total()).toBe(before - 1);
    const purge = await remove({ rowIds: ids, permanent: true });
    expect(purge.body.data.successfulRowIds.sort()).toEqual([...ids].sort());
    expect(await total()).toBe(before - 2);
    const counted = { row_count: (await rowCountSums(ctx.database.db, ctx.database.reader, ctx.database.dialect, [sheet.id])).live };
    expect(Number(counted.row_count)).toBe(before - 2);
  });

  it('refuses an empty, missing or oversized rowIds with 10001', async () => {
    for (const body of [{}, { rowIds: [] }, { rowIds: Array.from({ length: 1001 }, (_, i) => `id-${i}`) }]) {
      const response = await remove(body);
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(10001);
      expect(response.body.error_msg).toContain('rowIds');
    }
  });

  it('refuses a permanent flag that is not a boolean with 10001, deleting nothing', async () => {
    const ids = await seed(1);
    const response = await remove({ rowIds: ids, permanent: 'maybe' });
    expect(response.body.error_code).toBe(10001);
    expect(response.body.error_msg).toContain('permanent');
    expect((await ctx.call('GET', `${rows()}/${ids[0]}`)).body.error_code).toBe(1);
  });

  it('is served under /api/v3 too', async () => {
    const ids = await seed(1);
    const response = await ctx.call<BatchOutcome>('DELETE', `/api/v3/app/worksheets/${sheet.id}/rows/batch`, { rowIds: ids });
    expect(response.body.data).toEqual({ successfulRowIds: ids, failedRowIds: [] });
  });
});
