import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';

/**
 * API_PROFILE=public: a client written for the public V3 service works unchanged. The request
 * bodies have the shape of the public documentation's examples (same keys, same kinds of value,
 * our own names and values), and each answer is held to the shape its documented example shows.
 */

interface FieldOut {
  id: string;
  name: string;
  alias: string;
  type: string;
  subType?: number;
  dataSource?: string;
  options: Array<{ key: string; value: string; index: number; isDeleted?: boolean }>;
}

type FlatRow = Record<string, unknown>;

const USER_KEYS = ['accountId', 'avatar', 'fullname', 'status'];
const SYSTEM_KEYS = ['_createdAt', '_createdBy', '_owner', '_updatedAt', '_updatedBy'];
/** The process system fields flat rows carry with the others (empty outside a workflow run). */
const PROCESS_KEYS = ['_approvalCompletedAt', '_dueAt', '_initiatedAt', '_initiatedBy', '_nodeAssignees', '_nodeStartedAt', '_processName', '_processStatus', '_remainingTime'];

/** The documented worksheet-create example, field by field (the Attachment and Relation fields arrive with a later issue). */
const CREATE_WORKSHEET_BODY = {
  name: 'Public profile',
  sectionId: '',
  fields: [
    { name: 'Product', alias: 'product', type: 'Text', required: true, isTitle: 1 },
    { name: 'Price', alias: 'price', type: 'Number', precision: 2, required: true },
    { name: 'Grade', alias: 'grade', type: 'SingleSelect', options: [{ value: 'Gold', index: 1 }, { value: 'Silver', index: 2 }], required: true },
    { name: 'Tags', alias: '', type: 'MultipleSelect', options: [{ value: 'New', index: 1 }, { value: 'Sale', index: 2 }, { value: 'Eco', index: 3 }], required: false },
    { name: 'Opens', alias: 'opens', type: 'Time', required: false, subType: 1 },
    { name: 'Closes', alias: 'closes', type: 'Time', required: false, subType: 6 },
    { name: 'Buyer', type: 'Collaborator', alias: 'buyer', subType: 0, required: false },
    { name: 'Team', type: 'Collaborator', alias: 'team', subType: 1, required: false },
    { name: 'Launched', alias: 'launched', type: 'Date', subType: 3, required: false },
  ],
};

describeApi(
  'the public wire profile (API_PROFILE=public)',
  (ctx) => {
    let worksheetId: string;
    let fields: FieldOut[];
    let rowId: string;
    const byName = (name: string) => fields.find((f) => f.name === name)!;
    const rows = () => `/v3/app/worksheets/${worksheetId}/rows`;

    beforeAll(async () => {
      const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', CREATE_WORKSHEET_BODY);
      expect(created.body.error_msg).toBe('');
      worksheetId = created.body.data.worksheetId;
      fields = (await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`)).body.data.fields;
      const grade = byName('Grade').options[0].key;
      const tags = byName('Tags').options.map((o) => o.key);
      const record = await ctx.call<{ id: string }>('POST', rows(), {
        triggerWorkflow: true,
        fields: [
          { id: byName('Product').id, value: 'Router reset tool' },
          { id: 'price', value: 9.99 },
          { id: 'grade', value: [grade] },
          { id: byName('Tags').id, value: tags.slice(0, 2) },
          { id: 'opens', value: '09:30' },
          { id: 'closes', value: '18:00:30' },
          { id: 'buyer', value: [ctx.setup.owner.accountId] },
          { id: 'launched', value: '2024-03-25' },
        ],
      });
      expect(record.body.error_msg).toBe('');
      rowId = record.body.data.id;
    });

    it('uses the HAP header prefix when HEADER_PREFIX is not set', async () => {
      expect(ctx.config.headerPrefix).toBe('HAP');
      expect(Object.keys(ctx.auth).sort()).toEqual(['HAP-Appkey', 'HAP-Sign']);
      const other = await ctx.call('GET', '/v3/app', undefined, { 'SVC-Appkey': ctx.setup.app.appKey, 'SVC-Sign': ctx.setup.app.sign });
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ success: false, error_code: 10101, data: null });
    });

    it('answers the worksheet create like the documented example', async () => {
      const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { ...CREATE_WORKSHEET_BODY, name: 'Second' });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ success: true, error_code: 1 });
      expect(Object.keys(created.body.data)).toEqual(['worksheetId']);
      expect(created.body.data.worksheetId).toMatch(/^[0-9a-f]{24}$/);
    });

    it('reads field types as the public names, with subType, dataSource and options {key, value, index, isDeleted}', async () => {
      expect(fields.map((f) => [f.name, f.type])).toEqual([
        ['Product', 'Text'],
        ['Price', 'Number'],
        ['Grade', 'SingleSelect'],
        ['Tags', 'MultipleSelect'],
        ['Opens', 'Time'],
        ['Closes', 'Time'],
        ['Buyer', 'Collaborator'],
        ['Team', 'Collaborator'],
        ['Launched', 'Date'],
      ]);
      expect(fields.map((f) => f.subType)).toEqual([undefined, undefined, undefined, undefined, 1, 6, 0, 1, 3]);
      expect(fields.map((f) => f.dataSource)).toEqual(fields.map(() => ''));
      for (const option of [...byName('Grade').options, ...byName('Tags').options]) {
        expect(Object.keys(option).sort()).toEqual(['index', 'isDeleted', 'key', 'value']);
        expect(option.isDeleted).toBe(false);
      }
      expect(byName('Grade').options.map((o) => [o.value, o.index])).toEqual([['Gold', 1], ['Silver', 2]]);
    });

    it('answers the record create like the documented example: {id}', async () => {
      const created = await ctx.call<{ id: string }>('POST', rows(), { triggerWorkflow: true, fields: [{ id: byName('Product').id, value: 'Second', type: 1 }, { id: 'price', value: '5' }, { id: 'grade', value: ['Silver'] }] });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ success: true, error_code: 1 });
      expect(Object.keys(created.body.data)).toEqual(['id']);
      expect((await ctx.call('DELETE', `${rows()}/${created.body.data.id}`, { permanent: true })).body.error_code).toBe(1);
    });

    it('lists with a body shaped like the documented example: flat rows keyed by field id, system fields, total', async () => {
      const product = byName('Product').id;
      const price = byName('Price').id;
      const page = await ctx.call<{ rows: FlatRow[]; total: number }>('POST', `${rows()}/list`, {
        pageSize: 100,
        pageIndex: 1,
        viewId: '',
        fields: [''],
        filter: {
          type: 'group',
          logic: 'OR',
          children: [
            {
              type: 'group',
              logic: 'AND',
              children: [
                { type: 'condition', field: price, operator: 'eq', value: ['9.99'] },
                { type: 'condition', field: product, operator: 'isnotempty' },
              ],
            },
          ],
        },
        sorts: [{ field: '', isAsc: false }],
        search: '',
        tableView: true,
        useFieldIdAsKey: true,
        includeTotalCount: true,
        includeSystemFields: true,
      });
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ success: true, error_code: 1, error_msg: '' });
      expect(page.body.data.total).toBe(1);
      const [row] = page.body.data.rows;
      expect(Object.keys(row).sort()).toEqual(['id', 'rowId', 'autoid', ...SYSTEM_KEYS, ...PROCESS_KEYS, ...fields.map((f) => f.id)].sort());
      expect(row).toMatchObject({ id: rowId, rowId, autoid: 1, [product]: 'Router reset tool', [price]: '9.99' });
      expect(typeof row._createdAt).toBe('string');
      expect(typeof row._updatedAt).toBe('string');
      for (const key of ['_createdBy', '_updatedBy', '_owner']) expect(Object.keys(row[key] as object).sort()).toEqual(USER_KEYS);
      expect(row._createdBy).toMatchObject({ accountId: 'user-api', fullname: 'API' });
      expect(row[byName('Grade').id]).toEqual([{ key: byName('Grade').options[0].key, value: 'Gold' }]);
    });

    it('keys flat rows by alias by default, by field id when a field has none, without system fields', async () => {
      const page = await ctx.call<{ rows: FlatRow[]; total: number }>('POST', `${rows()}/list`, { pageSize: 10, pageIndex: 1 });
      expect(page.body.data.total).toBe(1);
      const [row] = page.body.data.rows;
      const tags = byName('Tags');
      expect(Object.keys(row).sort()).toEqual(['buyer', 'closes', 'grade', 'id', 'launched', 'opens', 'price', 'product', 'rowId', 'team', tags.id].sort());
      expect(row).toMatchObject({ id: rowId, rowId, product: 'Router reset tool', price: '9.99', opens: '09:30', closes: '18:00:30', launched: '2024-03-25', team: [] });
      expect(row[tags.id]).toEqual(tags.options.slice(0, 2).map((o) => ({ key: o.key, value: o.value })));
      expect(row.buyer).toEqual([expect.objectContaining({ accountId: ctx.setup.owner.accountId })]);
    });

    it('gets a record as a flat object too, with system fields when asked', async () => {
      const plain = await ctx.call<FlatRow>('GET', `${rows()}/${rowId}`);
      expect(plain.status).toBe(200);
      expect(plain.body.data).toMatchObject({ id: rowId, rowId, product: 'Router reset tool', price: '9.99' });
      expect(Object.keys(plain.body.data).filter((k) => k.startsWith('_'))).toEqual([]);
      const withSystem = await ctx.call<FlatRow>('GET', `${rows()}/${rowId}?includeSystemFields=true&useFieldIdAsKey=true`);
      expect(withSystem.body.data).toMatchObject({ id: rowId, rowId, [byName('Product').id]: 'Router reset tool', _owner: { accountId: 'user-api' } });
      expect(Object.keys(withSystem.body.data).filter((k) => k.startsWith('_')).sort()).toEqual([...SYSTEM_KEYS, ...PROCESS_KEYS].sort());
    });

    it('answers business errors with HTTP 200 and the envelope', async () => {
      const cases: Array<[Promise<{ status: number; headers: Record<string, unknown>; body: { success: boolean; error_code: number; error_msg: string; data: unknown } }>, number]> = [
        [ctx.call('GET', '/v3/app/worksheets/000000000000000000000000'), 430022],
        [ctx.call('GET', `${rows()}/00000000-0000-0000-0000-000000000000`), 10007],
        [ctx.call('POST', rows(), { fields: [{ id: 'price', value: 'abc' }] }), 10002],
        [ctx.call('POST', rows(), { fields: [{ id: 'price', value: 1 }] }), 430019],
        [ctx.call('POST', `${rows()}/list`, { pageSize: 'fifty' }), 10001],
        [ctx.call('POST', `${rows()}/list`, '{"pageSize": '), 10001],
        [ctx.call('GET', '/v3/app', undefined, {}), 10101],
        [ctx.call('GET', '/v3/app', undefined, { 'HAP-Appkey': ctx.setup.app.appKey, 'HAP-Sign': 'wrong' }), 10102],
      ];
      for (const [pending, code] of cases) {
        const response = await pending;
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.body).toMatchObject({ success: false, error_code: code, data: null });
        expect(typeof response.body.error_msg).toBe('string');
      }
    });

    it('keeps the status of refusals that are not business errors: unknown endpoints and methods', async () => {
      expect((await ctx.call('GET', '/v3/nothing-here')).status).toBe(404);
      const wrongMethod = await ctx.call('PUT', '/v3/app', {});
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body).toMatchObject({ success: false, error_code: 10001 });
    });
  },
  { API_PROFILE: 'public' },
);

describeApi(
  'the public wire profile with HEADER_PREFIX set',
  (ctx) => {
    it('keeps the configured prefix', async () => {
      expect(ctx.config.headerPrefix).toBe('Acme');
      const response = await ctx.call('GET', '/v3/app', undefined, { 'Acme-Appkey': ctx.setup.app.appKey, 'Acme-Sign': ctx.setup.app.sign });
      expect(response.body.error_code).toBe(1);
    });
  },
  { API_PROFILE: 'public', HEADER_PREFIX: 'Acme' },
);
