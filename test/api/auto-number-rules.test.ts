import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';

/** AutoNumber rule segments through the API: text, created time and a sequence that starts again each day (fixed clock, Shanghai time). */
let now = Date.parse('2026-03-14T15:30:00Z');

describeApi(
  'auto numbers with rule segments',
  (ctx) => {
    let sheet: Sheet;
    beforeAll(async () => {
      now = Date.parse('2026-03-14T15:30:00Z');
      sheet = await makeSheet(ctx, 'Orders', [
        { name: 'Number', alias: 'number', type: 'AutoNumber', isTitle: true, config: { rule: [{ type: 'text', value: 'ORD-' }, { type: 'createdTime', format: 'YYYYMMDD' }, { type: 'text', value: '-' }, { type: 'sequence', length: 3, repeat: 'day' }] } },
        { name: 'Note', alias: 'note', type: 'Text' },
      ]);
    });

    it('numbers records per day of creation in TIME_ZONE, gapless, and reads them as the rule says', async () => {
      const number = async (id: string) => valueOf(await readRecord(ctx, sheet, id), sheet.field.number);
      const first = await createRecord(ctx, sheet, [{ id: 'note', value: 'a' }]);
      const batch = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows: [{ fields: [] }, { fields: [] }] });
      expect(await number(first)).toBe('ORD-20260314-001');
      expect(await Promise.all(batch.body.data.rowIds.map(number))).toEqual(['ORD-20260314-002', 'ORD-20260314-003']);
      // 16:30 UTC is 00:30 on the 15th in Shanghai: a new day, a new count.
      now = Date.parse('2026-03-14T16:30:00Z');
      const next = await createRecord(ctx, sheet, [{ id: 'note', value: 'b' }]);
      expect(await number(next)).toBe('ORD-20260315-001');
      const listed = await ctx.call<{ rows: Array<Record<string, unknown>> }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { useFieldIdAsKey: false, sorts: [{ field: 'autoid', isAsc: true }] });
      expect(listed.body.data.rows.map((row) => row.number)).toEqual(['ORD-20260314-001', 'ORD-20260314-002', 'ORD-20260314-003', 'ORD-20260315-001']);
    });

    it('gives concurrent inserts distinct numbers without gaps', async () => {
      const parallel = await makeSheet(ctx, 'Parallel', [{ name: 'Number', alias: 'number', type: 'AutoNumber', isTitle: true, config: { rule: [{ type: 'text', value: 'P' }, { type: 'sequence', length: 3, repeat: 'month' }] } }]);
      const made = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 3 === 0
            ? ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${parallel.id}/rows/batch`, { rows: [{ fields: [] }, { fields: [] }] }).then((r) => r.body.data.rowIds)
            : ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${parallel.id}/rows`, { fields: [] }).then((r) => [r.body.data.id]),
        ),
      );
      const numbers = await Promise.all(made.flat().map(async (id) => valueOf(await readRecord(ctx, parallel, id), parallel.field.number) as string));
      expect(numbers.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `P${String(i + 1).padStart(3, '0')}`));
    });

    it('refuses a rule without exactly one sequence, or with an unknown segment, and a change of its repeat', async () => {
      const refused = async (rule: unknown, text: string) => {
        const response = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { addFields: [{ name: 'Other', type: '33', config: { rule } }] });
        expect(response.body).toMatchObject({ error_code: 10002 });
        expect(response.body.error_msg).toContain(text);
      };
      await refused([{ type: 'text', value: 'X' }], 'exactly one sequence');
      await refused([{ type: 'sequence' }, { type: 'emoji' }], '[1].type must be sequence, createdTime or text');
      await refused([{ type: 'sequence', repeat: 'hourly' }], '[0].repeat must be one of never, day, month, year');
      const change = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { editFields: [{ id: 'number', config: { rule: [{ type: 'sequence', repeat: 'month' }] } }] });
      expect(change.body).toMatchObject({ error_code: 10002 });
      expect(change.body.error_msg).toContain('repeat cannot change from day to month');
    });
  },
  { TIME_ZONE: 'Asia/Shanghai' },
  { clock: () => now },
);
