import { beforeAll, describe, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { indexExists } from '../helpers/catalog.js';
import { makeSheet, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/** The record list: pages, totals, sorting, projection and the errors of its parameters. */

const LIST_TEST_FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
  { name: 'Score', alias: 'score', type: '6' },
  { name: 'Notes', alias: 'notes', type: '2' },
  { name: 'Divider', alias: 'divider', type: '22' },
];

interface Page {
  rows: WireRecord[];
  total: number;
  pageIndex: number;
  pageSize: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeApi('records: list', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const list = (body?: unknown) => ctx.call<Page>('POST', `${rows()}/list`, body);
  const titles = (page: Page) => page.rows.map((r) => valueOf(r, sheet.field.title));
  /** Creates records one by one, a few ms apart so that their timestamps differ. */
  const createInOrder = async (records: Array<{ title: string; score?: number | null }>) => {
    const ids: string[] = [];
    for (const record of records) {
      const fields: Array<{ id: string; value: unknown }> = [{ id: 'title', value: record.title }];
      if (record.score !== undefined) fields.push({ id: 'score', value: record.score });
      const created = await ctx.call<{ id: string }>('POST', rows(), { fields });
      expect(created.body.error_code).toBe(1);
      ids.push(created.body.data.id);
      await sleep(3);
    }
    return ids;
  };
  let ids: string[];

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Scores', LIST_TEST_FIELDS);
    ids = await createInOrder([
      { title: 'c', score: 30 },
      { title: 'none-1' },
      { title: 'a', score: -5 },
      { title: 'e', score: 100.5 },
      { title: 'none-2', score: null },
      { title: 'b', score: 7 },
    ]);
  });

  it('answers {rows, total, pageIndex, pageSize} with defaults 1 and 50', async () => {
    const page = await list({});
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ success: true, error_code: 1 });
    expect(Object.keys(page.body.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
    expect(page.body.data).toMatchObject({ total: 6, pageIndex: 1, pageSize: 50 });
    expect(page.body.data.rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    const first = page.body.data.rows.find((r) => r.id === ids[0])!;
    expect(first.fields.map((f) => f.id)).toEqual([sheet.field.title, sheet.field.score, sheet.field.notes]);
    expect(first.fields[1]).toEqual({ id: sheet.field.score, value: '30', type: '6', controlName: 'Score' });
  });

  it('accepts a request without a body', async () => {
    const page = await list();
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ total: 6, pageIndex: 1, pageSize: 50 });
  });

  it('without sorts lists records in creation order', async () => {
    expect((await list({})).body.data.rows.map((r) => r.id)).toEqual(ids);
  });

  it('sorts a Number field ascending with empty values first', async () => {
    const page = (await list({ sorts: [{ field: 'score', isAsc: true }] })).body.data;
    expect(titles(page).slice(0, 2).sort()).toEqual(['none-1', 'none-2']);
    expect(titles(page).slice(2)).toEqual(['a', 'b', 'c', 'e']);
  });

  it('sorts a Number field descending with empty values last', async () => {
    const page = (await list({ sorts: [{ field: sheet.field.score, isAsc: false }] })).body.data;
    expect(titles(page).slice(0, 4)).toEqual(['e', 'c', 'b', 'a']);
    expect(titles(page).slice(4).sort()).toEqual(['none-1', 'none-2']);
  });

  it('sorts numerically, not as text', async () => {
    const page = (await list({ sorts: [{ field: 'score', isAsc: 'true' }] })).body.data;
    expect(page.rows.map((r) => valueOf(r, sheet.field.score)).slice(2)).toEqual(['-5', '7', '30', '100.5']);
  });

  it('sorts by _createdAt both ways', async () => {
    expect((await list({ sorts: [{ field: '_createdAt', isAsc: true }] })).body.data.rows.map((r) => r.id)).toEqual(ids);
    expect((await list({ sorts: [{ field: '_createdAt', isAsc: false }] })).body.data.rows.map((r) => r.id)).toEqual([...ids].reverse());
  });

  it('sorts by _updatedAt, following the latest update', async () => {
    await sleep(3);
    expect((await ctx.call('PATCH', `${rows()}/${ids[0]}`, { fields: [{ id: 'notes', value: 'touched' }] })).body.error_code).toBe(1);
    const newestFirst = (await list({ sorts: [{ field: '_updatedAt', isAsc: false }] })).body.data;
    expect(newestFirst.rows[0].id).toBe(ids[0]);
    expect(newestFirst.rows.slice(1).map((r) => r.id)).toEqual([...ids.slice(1)].reverse());
    const oldestFirst = (await list({ sorts: [{ field: '_updatedAt', isAsc: true }] })).body.data;
    expect(oldestFirst.rows.map((r) => r.id)).toEqual([...ids.slice(1), ids[0]]);
    const updated = oldestFirst.rows[5];
    expect(Date.parse(updated._updatedAt)).toBeGreaterThan(Date.parse(updated._createdAt));
  });

  it('projects only the asked fields, by alias or id, in the asked order', async () => {
    const page = (await list({ fields: ['score', sheet.field.title] })).body.data;
    expect(page.total).toBe(6);
    for (const row of page.rows) {
      expect(row.fields.map((f) => f.id)).toEqual([sheet.field.score, sheet.field.title]);
      expect(row._createdAt).toMatch(/Z$/);
    }
    expect(valueOf(page.rows[0], sheet.field.title)).toBe('c');
  });

  it('refuses projecting an unknown field with 10002 naming it', async () => {
    const response = await list({ fields: ['title', 'nonexistent'] });
    expect(response.body.error_code).toBe(10002);
    expect(response.body.error_msg).toContain('nonexistent');
  });

  it('refuses sorting by an unknown field with 10002 naming it', async () => {
    const response = await list({ sorts: [{ field: 'no_such_field', isAsc: true }] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error_code: 10002, data: null });
    expect(response.body.error_msg).toContain('no_such_field');
  });

  it('refuses sorting by a field that holds no value with 10002', async () => {
    const response = await list({ sorts: [{ field: 'divider', isAsc: true }] });
    expect(response.body.error_code).toBe(10002);
  });

  it('shows a field named many times in fields once (2,000 names are more columns than either engine reads)', async () => {
    const response = await list({ fields: [...Array.from({ length: 2_000 }, () => 'title'), sheet.field.title, 'score'] });
    expect(response.body.error_msg).toBe('');
    expect(response.body.data.rows[0].fields.map((f) => f.id)).toEqual([sheet.field.title, sheet.field.score]);
  });

  it('applies a non-empty filter (the whole language is tested in records-filter.test.ts)', async () => {
    const response = await list({ filter: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'score', operator: 'gt', value: [1] }] } });
    expect(response.body.error_msg).toBe('');
    expect(response.body.data.total).toBe(3);
  });

  it('asks for a sort index without building it in the request; the builder makes it afterwards', async () => {
    const response = await list({ sorts: [{ field: 'score', isAsc: true }] });
    expect(response.body.error_msg).toBe('');
    await ctx.app.indexes.idle();
    const indexName = `ix_${sheet.id}_${sheet.field.score}`;
    const worksheet = await ctx.call<{ indexes: Array<{ name: string; fields: string[]; unique: boolean }> }>('GET', `/v3/app/worksheets/${sheet.id}`);
    expect(worksheet.body.data.indexes).toContainEqual({ name: indexName, fields: [sheet.field.score], unique: false });
    expect(await indexExists(ctx, indexName)).toBe(true);
  });

  it('accepts an empty filter', async () => {
    for (const filter of [null, {}, { type: 'group', logic: 'AND', children: [] }]) {
      expect((await list({ filter })).body.data.total).toBe(6);
    }
  });

  describe('page parameters', () => {
    it('refuses pageSize 0 and 1001 with 10002 naming pageSize', async () => {
      for (const pageSize of [0, 1001]) {
        const response = await list({ pageSize });
        expect(response.status).toBe(400);
        expect(response.body.error_code).toBe(10002);
        expect(response.body.error_msg).toContain('pageSize');
      }
    });

    it('accepts pageSize 1 and 1000', async () => {
      expect((await list({ pageSize: 1 })).body.data.rows).toHaveLength(1);
      expect((await list({ pageSize: 1000 })).body.data).toMatchObject({ pageSize: 1000, total: 6 });
    });

    it('refuses pageIndex 0 with 10002', async () => {
      const response = await list({ pageIndex: 0 });
      expect(response.body.error_code).toBe(10002);
      expect(response.body.error_msg).toContain('pageIndex');
    });

    it('refuses a pageSize that is not a number with 10001', async () => {
      const response = await list({ pageSize: 'fifty' });
      expect(response.body.error_code).toBe(10001);
      expect(response.body.error_msg).toContain('pageSize');
    });

    it('reads numbers given as strings', async () => {
      const page = (await list({ pageSize: '2', pageIndex: '2' })).body.data;
      expect(page).toMatchObject({ pageSize: 2, pageIndex: 2, total: 6 });
      expect(page.rows.map((r) => r.id)).toEqual(ids.slice(2, 4));
      expect((await list({ pageSize: '50' })).body.data.pageSize).toBe(50);
    });

    it('answers an empty page past the end, with the total', async () => {
      const page = (await list({ pageSize: 5, pageIndex: 3 })).body.data;
      expect(page).toEqual({ rows: [], total: 6, pageIndex: 3, pageSize: 5 });
    });
  });

  it('is served under /api/v3 too', async () => {
    const response = await ctx.call<Page>('POST', `/api/v3/app/worksheets/${sheet.id}/rows/list`, { sorts: [{ field: '_createdAt', isAsc: true }] });
    expect(response.body.data.rows.map((r) => r.id)).toEqual(ids);
  });
});

describeApi('records: list totals and pagination', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const list = (body: unknown) => ctx.call<Page>('POST', `${rows()}/list`, body);
  let ids: string[];

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Many', LIST_TEST_FIELDS);
    // 120 records in two batches; scores repeat (i % 7) so that sorting by score has many ties.
    const make = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => ({ fields: [{ id: 'title', value: `r${from + k}` }, { id: 'score', value: (from + k) % 7 }] }));
    const first = await ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, { rows: make(0, 60) });
    const second = await ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, { rows: make(60, 60) });
    ids = [...first.body.data.rowIds, ...second.body.data.rowIds];
    expect(ids).toHaveLength(120);
  });

  const walk = async (sorts: unknown[]) => {
    const seen: string[] = [];
    const pages: Page[] = [];
    for (let pageIndex = 1; pageIndex <= 4; pageIndex++) {
      const page = (await list({ pageSize: 50, pageIndex, sorts })).body.data;
      pages.push(page);
      seen.push(...page.rows.map((r) => r.id));
    }
    return { seen, pages };
  };

  it.each([
    ['no sort', []],
    ['a Number field with ties, ascending', [{ field: 'score', isAsc: true }]],
    ['a Number field with ties, descending', [{ field: 'score', isAsc: false }]],
    ['_createdAt, which batches share', [{ field: '_createdAt', isAsc: false }]],
  ])('walks 120 records in pages of 50 seeing each exactly once (%s)', async (_label, sorts) => {
    const { seen, pages } = await walk(sorts);
    expect(pages.map((p) => p.rows.length)).toEqual([50, 50, 20, 0]);
    expect(pages.every((p) => p.total === 120 && p.pageSize === 50)).toBe(true);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('orders ties the same on every page walk', async () => {
    const sorts = [{ field: 'score', isAsc: true }];
    const first = await walk(sorts);
    const second = await walk(sorts);
    expect(second.seen).toEqual(first.seen);
    const scores = first.pages.flatMap((p) => p.rows.map((r) => Number(valueOf(r, sheet.field.score))));
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
  });

  it('leaves deleted records out of rows and total, logical or permanent', async () => {
    const softly = ids.slice(0, 3);
    const forGood = ids.slice(3, 5);
    expect((await ctx.call('DELETE', `${rows()}/batch`, { rowIds: softly })).body.error_code).toBe(1);
    expect((await ctx.call('DELETE', `${rows()}/${forGood[0]}`, { permanent: true })).body.error_code).toBe(1);
    expect((await ctx.call('DELETE', `${rows()}/${forGood[1]}`)).body.error_code).toBe(1);
    const page = (await list({ pageSize: 1000 })).body.data;
    expect(page.total).toBe(115);
    expect(page.rows).toHaveLength(115);
    const listed = new Set(page.rows.map((r) => r.id));
    for (const id of [...softly, ...forGood]) expect(listed.has(id)).toBe(false);
  });
});

describeApi('sorting by a choice field', (ctx) => {
  it('orders by the position of the option in the field, empty values first ascending', async () => {
    const sheet = await makeSheet(ctx, 'Stages', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      {
        name: 'Stage',
        alias: 'stage',
        type: '11',
        options: [
          { value: 'Zeta', index: 1 },
          { value: 'Alpha', index: 2 },
          { value: 'Mid', index: 3 },
        ],
      },
    ]);
    const rows = [
      { fields: [{ id: 'title', value: 'm' }, { id: 'stage', value: 'Mid' }] },
      { fields: [{ id: 'title', value: 'z' }, { id: 'stage', value: 'Zeta' }] },
      { fields: [{ id: 'title', value: 'none' }] },
      { fields: [{ id: 'title', value: 'a' }, { id: 'stage', value: 'Alpha' }] },
    ];
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.success).toBe(true);
    const titles = async (isAsc: boolean) => {
      const page = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, {
        pageSize: 10,
        pageIndex: 1,
        sorts: [{ field: 'stage', isAsc }],
      });
      expect(page.body.error_msg).toBe('');
      return page.body.data.rows.map((r) => valueOf(r, sheet.field.title));
    };
    expect(await titles(true)).toEqual(['none', 'z', 'a', 'm']);
    expect(await titles(false)).toEqual(['m', 'a', 'z', 'none']);

    // Reordering the options reorders the list.
    const schema = await ctx.call<{ fields: Array<{ alias: string; options: Array<{ key: string; value: string }> }> }>('GET', `/v3/app/worksheets/${sheet.id}`);
    const options = schema.body.data.fields.find((f) => f.alias === 'stage')!.options;
    const byText = Object.fromEntries(options.map((o) => [o.value, o.key]));
    const edit = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, {
      editFields: [{ id: 'stage', options: [{ key: byText.Alpha, value: 'Alpha', index: 1 }, { key: byText.Mid, value: 'Mid', index: 2 }, { key: byText.Zeta, value: 'Zeta', index: 3 }] }],
    });
    expect(edit.body.success).toBe(true);
    expect(await titles(true)).toEqual(['none', 'a', 'm', 'z']);
  });
});
