import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * The rest of the list body under the default (spec) profile: the flat shape a request that
 * carries `useFieldIdAsKey` gets, `includeSystemFields`, `responseFormat: "md"`, `tableView`,
 * blank placeholders; and the type aliases accepted on input.
 */

const SHAPE_FIELDS = [
  { name: 'Title', alias: 'title', type: 'Text', isTitle: true, required: true },
  { name: 'Amount', alias: 'amount', type: 'Number', precision: 2 },
  { name: 'Status', alias: 'status', type: 'SingleSelect', options: [{ value: 'Open', index: 1 }, { value: 'Paid', index: 2 }] },
  { name: 'Note', alias: '', type: 'Text' },
  { name: 'Record id?', alias: 'id', type: 'Text' },
];

type FlatRow = Record<string, unknown>;
interface Page<Row> {
  rows: Row;
  total?: number;
  pageIndex: number;
  pageSize: number;
}

const SYSTEM_KEYS = ['_createdAt', '_createdBy', '_owner', '_updatedAt', '_updatedBy'];
/** The process system fields flat rows carry with the others (empty outside a workflow run). */
const PROCESS_KEYS = ['_approvalCompletedAt', '_dueAt', '_initiatedAt', '_initiatedBy', '_nodeAssignees', '_nodeStartedAt', '_processName', '_processStatus', '_remainingTime'];

describeApi('record shapes (spec profile)', (ctx) => {
  let sheet: Sheet;
  let noteId: string;
  let ids: string[];
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const list = <Row>(body: unknown) => ctx.call<Page<Row>>('POST', `${rows()}/list`, body);

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Shapes', SHAPE_FIELDS);
    const schema = await ctx.call<{ fields: Array<{ id: string; name: string }> }>('GET', `/v3/app/worksheets/${sheet.id}`);
    noteId = schema.body.data.fields.find((f) => f.name === 'Note')!.id;
    ids = [];
    const records = [
      [{ id: 'title', value: 'ACME｜Corp' }, { id: 'amount', value: 129.5 }, { id: 'status', value: ['Open'] }, { id: noteId, value: 'two\nlines' }, { id: sheet.field.id, value: 'x' }],
      [{ id: 'title', value: 'Globex' }],
    ];
    for (const fields of records) {
      const created = await ctx.call<{ id: string }>('POST', rows(), { fields });
      expect(created.body.error_msg).toBe('');
      ids.push(created.body.data.id);
      await new Promise((resolve) => setTimeout(resolve, 3)); // distinct creation times: the default order is creation order
    }
  });

  it('keeps the spec shape by default, with the system fields whatever includeSystemFields says', async () => {
    for (const body of [{}, { includeSystemFields: false }, { includeSystemFields: true }, { tableView: true }]) {
      const page = await list<WireRecord[]>(body);
      expect(page.status).toBe(200);
      const [first] = page.body.data.rows;
      expect(Object.keys(first).sort()).toEqual(['fields', 'id', ...SYSTEM_KEYS].sort());
      expect(first.fields.map((f) => f.id)).toEqual([sheet.field.title, sheet.field.amount, sheet.field.status, noteId, sheet.field.id]);
    }
  });

  it('answers flat rows keyed by alias for useFieldIdAsKey false: a field without alias, or aliased "id", by its id', async () => {
    const page = await list<FlatRow[]>({ useFieldIdAsKey: false });
    expect(page.body.data.total).toBe(2);
    const [first, second] = page.body.data.rows;
    expect(first).toEqual({
      id: ids[0],
      rowId: ids[0],
      title: 'ACME｜Corp',
      amount: '129.50',
      status: [{ key: expect.any(String), value: 'Open' }],
      [noteId]: 'two\nlines',
      [sheet.field.id]: 'x',
    });
    expect(second).toEqual({ id: ids[1], rowId: ids[1], title: 'Globex', amount: null, status: [], [noteId]: '', [sheet.field.id]: '' });
  });

  it('answers flat rows keyed by field id for useFieldIdAsKey true (also as "true"), with system fields when asked', async () => {
    for (const useFieldIdAsKey of [true, 'true']) {
      const page = await list<FlatRow[]>({ useFieldIdAsKey, includeSystemFields: true, fields: ['title', 'amount'] });
      const [first] = page.body.data.rows;
      expect(Object.keys(first).sort()).toEqual(['id', 'rowId', 'autoid', sheet.field.title, sheet.field.amount, ...SYSTEM_KEYS, ...PROCESS_KEYS].sort());
      expect(first).toMatchObject({ [sheet.field.title]: 'ACME｜Corp', [sheet.field.amount]: '129.50' });
      expect(first._createdBy).toEqual({ accountId: 'user-api', fullname: 'API', avatar: '', status: 1 });
      expect(first._createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('gets a record in the flat shape when the query carries useFieldIdAsKey, else in the spec shape', async () => {
    const spec = await ctx.call<WireRecord>('GET', `${rows()}/${ids[0]}`);
    expect(spec.body.data.fields).toHaveLength(5);
    const flat = await ctx.call<FlatRow>('GET', `${rows()}/${ids[0]}?useFieldIdAsKey=false`);
    expect(flat.body.data).toMatchObject({ id: ids[0], rowId: ids[0], title: 'ACME｜Corp', amount: '129.50' });
    expect(Object.keys(flat.body.data).some((k) => k.startsWith('_'))).toBe(false);
    const withSystem = await ctx.call<FlatRow>('GET', `${rows()}/${ids[0]}?useFieldIdAsKey=1&includeSystemFields=True`);
    expect(withSystem.body.data).toMatchObject({ id: ids[0], [sheet.field.title]: 'ACME｜Corp', _owner: { accountId: 'user-api' } });
  });

  it('answers responseFormat md with one text table in rows, keeping total and the page', async () => {
    const page = await list<string>({ responseFormat: 'md', sorts: [{ field: '_createdAt', isAsc: true }] });
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual({
      rows: [`id｜Title｜Amount｜Status｜Note｜Record id?`, `${ids[0]}｜ACME|Corp｜129.50｜Open｜two<br>lines｜x`, `${ids[1]}｜Globex｜｜｜｜`].join('\n'),
      total: 2,
      pageIndex: 1,
      pageSize: 50,
    });
  });

  it('adds the system columns to the md table with includeSystemFields, and follows fields and includeTotalCount', async () => {
    const page = await list<string>({ responseFormat: 'md', includeSystemFields: true, fields: ['title'], includeTotalCount: false, pageSize: 1 });
    expect(page.body.data).toEqual({ rows: expect.any(String), pageIndex: 1, pageSize: 1 });
    const [header, line] = page.body.data.rows.split('\n');
    expect(header).toBe('id｜Title｜_createdBy｜_owner｜_updatedBy｜_createdAt｜_updatedAt');
    expect(line.split('｜').slice(0, 5)).toEqual([ids[0], 'ACME|Corp', 'API', 'API', 'API']);
    expect(line.split('｜')[5]).toMatch(/Z$/);
  });

  it('skips blank placeholders in fields and sorts, as in the public examples', async () => {
    const page = await list<WireRecord[]>({ fields: [''], sorts: [{ field: '', isAsc: false }] });
    expect(page.body.error_msg).toBe('');
    expect(page.body.data.rows.map((r) => r.id)).toEqual(ids);
    expect(page.body.data.rows[0].fields).toHaveLength(5);
  });

  it('refuses a viewId the worksheet has no view of (10007) and answers errors with their HTTP status', async () => {
    const view = await list({ viewId: '65dda1a5a608a40050774c8f' });
    expect(view.status).toBe(404);
    expect(view.body).toMatchObject({ success: false, error_code: 10007, data: null });
    const bad = await list({ responseFormat: 'xml' });
    expect(bad.status).toBe(400);
    expect(bad.body.error_msg).toContain('responseFormat');
  });
});

describeApi('field type names and aliases on input', (ctx) => {
  it('accepts the public names and the common aliases, and reads them back as codes', async () => {
    const aliases: Array<[string, string]> = [
      ['PhoneNumber', '3'],
      ['Phone', '3'],
      ['MOBILE_PHONE', '3'],
      ['Telephone', '4'],
      ['Money', '8'],
      ['Currency', '8'],
      ['Radio', '9'],
      ['FLAT_MENU', '9'],
      ['MultiSelect', '10'],
      ['multi-select', '10'],
      ['DROP_DOWN', '11'],
      ['DATE_TIME', '16'],
      ['AreaCity', '23'],
      ['Member', '26'],
      ['USER_PICKER', '26'],
      ['Score', '28'],
      ['AUTO_ID', '33'],
      ['Switch', '36'],
      ['RICH_TEXT', '41'],
    ];
    const fields = aliases.map(([type], i) => ({ name: `F${i}`, type, ...(/select|radio|flat|drop/i.test(type) ? { options: [{ value: 'A', index: 1 }] } : {}) }));
    const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Aliases', fields: [{ name: 'Title', type: 'Text' }, ...fields] });
    expect(created.body.error_msg).toBe('');
    const schema = await ctx.call<{ fields: Array<{ name: string; type: string }> }>('GET', `/v3/app/worksheets/${created.body.data.worksheetId}`);
    expect(schema.body.data.fields.slice(1).map((f) => [f.name, f.type])).toEqual(aliases.map(([, code], i) => [`F${i}`, code]));
  });

  it('refuses a name that is neither a public name nor an alias, naming where it was given', async () => {
    const created = await ctx.call('POST', '/v3/app/worksheets', { name: 'Unknown', fields: [{ name: 'Title', type: 'Text' }, { name: 'X', type: 'Spreadsheet' }] });
    expect(created.status).toBe(400);
    expect(created.body.error_code).toBe(10002);
    expect(created.body.error_msg).toContain('fields[1].type');
  });
});
