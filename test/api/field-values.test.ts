import { expect, it } from 'vitest';
import { resolveFieldType } from '../../src/fields/registry.js';
import { describeApi } from '../helpers/api-harness.js';

interface FieldOut {
  id: string;
  name: string;
  alias: string;
  type: string;
  options: Array<{ key: string; value: string; index: number }>;
}
interface RecordOut {
  id: string;
  fields: Array<{ id: string; value: unknown; type: string; controlName: string }>;
}

const DEPARTMENT_ID = 'dep-field-values-1';

/** One field of every ready value-holding type, plus a divider that holds nothing. */
const FIELDS = [
  { name: 'Title', alias: 'title', type: 'Text' },
  { name: 'Mobile', alias: 'mobile', type: '3' },
  { name: 'Landline', alias: 'landline', type: '4' },
  { name: 'Mail', alias: 'mail', type: 'Email' },
  { name: 'Amount', alias: 'amount', type: 'Number', precision: 2 },
  { name: 'Passport', alias: 'passport', type: '7' },
  { name: 'Price', alias: 'price', type: 'Currency', precision: 2 },
  { name: 'Colour', alias: 'colour', type: 'SingleSelect', options: [{ value: 'Red', index: 1 }, { value: 'Green', index: 2 }] },
  { name: 'Tags', alias: 'tags', type: 'MultipleSelect', options: [{ value: 'A', index: 1 }, { value: 'B', index: 2 }, { value: 'C', index: 3 }] },
  { name: 'Size', alias: 'size', type: 'Dropdown', options: [{ value: 'S', index: 1 }, { value: 'M', index: 2 }] },
  { name: 'Due', alias: 'due', type: 'Date' },
  { name: 'Meeting', alias: 'meeting', type: 'DateTime' },
  { name: 'Province', alias: 'province', type: '19' },
  { name: 'Link', alias: 'link', type: 'DynamicLink' },
  { name: 'Divider', alias: 'divider', type: 'Divider' },
  { name: 'City', alias: 'city', type: '23' },
  { name: 'County', alias: 'county', type: '24' },
  { name: 'InWords', alias: 'inWords', type: 'AmountInWords', precision: 0 },
  { name: 'People', alias: 'people', type: 'Collaborator', subType: 1 },
  { name: 'Team', alias: 'team', type: 'Department' },
  { name: 'Stars', alias: 'stars', type: 'Rating', max: 10 },
  { name: 'Serial', alias: 'serial', type: 'AutoNumber', config: { length: 4 } },
  { name: 'Done', alias: 'done', type: 'Checkbox' },
  { name: 'Scan', alias: 'scan', type: 'CodeScan' },
  { name: 'Place', alias: 'place', type: 'Location' },
  { name: 'Body', alias: 'body', type: 'RichText' },
  { name: 'Sign', alias: 'sign', type: 'Signature' },
  { name: 'Recognised', alias: 'recognised', type: 'OCR' },
  { name: 'Opens', alias: 'opens', type: 'Time', subType: 6 },
  { name: 'Code', alias: 'code', type: 'Barcode' },
];

describeApi(
  'field values on the wire',
  (ctx) => {
    let worksheetId = '';
    let fields: FieldOut[] = [];
    const byAlias = (alias: string) => fields.find((f) => f.alias === alias)!;
    const optionKey = (alias: string, text: string) => byAlias(alias).options.find((o) => o.value === text)!.key;

    async function createRow(values: Record<string, unknown>) {
      return ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${worksheetId}/rows`, {
        fields: Object.entries(values).map(([id, value]) => ({ id, value })),
      });
    }

    async function readRow(rowId: string): Promise<Record<string, unknown>> {
      const response = await ctx.call<RecordOut>('GET', `/v3/app/worksheets/${worksheetId}/rows/${rowId}`);
      expect(response.status).toBe(200);
      const values: Record<string, unknown> = {};
      for (const item of response.body.data.fields) {
        const field = fields.find((f) => f.id === item.id)!;
        expect(item.type).toBe(field.type);
        values[field.alias] = item.value;
      }
      return values;
    }

    it('creates a worksheet with one field of every ready value-holding type', async () => {
      const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Every type', fields: FIELDS });
      expect(created.body).toMatchObject({ success: true, error_code: 1 });
      worksheetId = created.body.data.worksheetId;
      const schema = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`);
      fields = schema.body.data.fields;
      expect(fields.map((f) => [f.alias, f.type])).toEqual([
        ['title', '2'], ['mobile', '3'], ['landline', '4'], ['mail', '5'], ['amount', '6'], ['passport', '7'], ['price', '8'],
        ['colour', '9'], ['tags', '10'], ['size', '11'], ['due', '15'], ['meeting', '16'], ['province', '19'], ['link', '21'],
        ['divider', '22'], ['city', '23'], ['county', '24'], ['inWords', '25'], ['people', '26'], ['team', '27'], ['stars', '28'],
        ['serial', '33'], ['done', '36'], ['scan', '39'], ['place', '40'], ['body', '41'], ['sign', '42'], ['recognised', '43'],
        ['opens', '46'], ['code', '47'],
      ]);
      await ctx.database.db
        .insertInto('departments')
        .values({ id: DEPARTMENT_ID, organization_id: ctx.setup.organizationId, parent_id: null, name: 'Sales', created_at: Date.now() })
        .execute();
    });

    it('reads back every written value in its wire shape', async () => {
      const owner = ctx.setup.owner.accountId;
      const created = await createRow({
        title: 'First',
        mobile: '+86 138 0013 8000',
        landline: '010-12345678#12',
        mail: 'ada@example.com',
        amount: '12.5',
        passport: 'E12345678',
        price: 1.005,
        colour: [optionKey('colour', 'Green')],
        tags: [optionKey('tags', 'C'), 'A'],
        size: 'M',
        due: '2024-02-29',
        meeting: '2024-03-25 15:52:58',
        province: '310000',
        link: 'https://example.com/x',
        city: 440300,
        county: '310101',
        inWords: 1234.5,
        people: [owner],
        team: [DEPARTMENT_ID],
        stars: '8',
        done: 'True',
        scan: 'QR-1',
        place: { x: 121.47, y: 31.23, address: 'Bund 1', title: 'Office' },
        body: '<p>Hello <b>world</b></p>',
        sign: 'data:image/png;base64,iVBORw0KGgo=',
        recognised: 'INVOICE 42',
        opens: '09:30',
        code: '4006381333931',
      });
      expect(created.body).toMatchObject({ success: true, error_code: 1 });
      const values = await readRow(created.body.data.id);
      expect(values).toEqual({
        title: 'First',
        mobile: '+86 138 0013 8000',
        landline: '010-12345678#12',
        mail: 'ada@example.com',
        amount: '12.50',
        passport: 'E12345678',
        price: '1.01',
        colour: [{ key: optionKey('colour', 'Green'), value: 'Green' }],
        tags: [
          { key: optionKey('tags', 'C'), value: 'C' },
          { key: optionKey('tags', 'A'), value: 'A' },
        ],
        size: [{ key: optionKey('size', 'M'), value: 'M' }],
        due: '2024-02-29',
        meeting: '2024-03-25T07:52:58.000Z',
        province: { code: '310000', name: '上海市', path: '上海市' },
        link: 'https://example.com/x',
        city: { code: '440300', name: '深圳市', path: '广东省/深圳市' },
        county: { code: '310101', name: '黄浦区', path: '上海市/黄浦区' },
        inWords: '1235',
        people: [{ accountId: owner, fullname: 'Owner', avatar: '', status: 1 }],
        team: [{ id: DEPARTMENT_ID, name: 'Sales' }],
        stars: '8',
        serial: '0001',
        done: true,
        scan: 'QR-1',
        place: { x: 121.47, y: 31.23, address: 'Bund 1', title: 'Office' },
        body: '<p>Hello <b>world</b></p>',
        sign: 'data:image/png;base64,iVBORw0KGgo=',
        recognised: 'INVOICE 42',
        opens: '09:30:00',
        code: '4006381333931',
      });
    });

    it('reads a record written with no values as empty values', async () => {
      const created = await createRow({});
      expect(created.body.success).toBe(true);
      const values = await readRow(created.body.data.id);
      expect(values).toEqual({
        title: '', mobile: '', landline: '', mail: '', amount: null, passport: '', price: null, colour: [], tags: [], size: [],
        due: null, meeting: null, province: null, link: '', city: null, county: null, inWords: null, people: [], team: [], stars: null,
        serial: '0002', done: false, scan: '', place: null, body: '', sign: '', recognised: '', opens: null, code: '',
      });
    });

    it('honours an explicit offset on DateTime and keeps Checkbox false', async () => {
      const created = await createRow({ meeting: '2024-03-25T15:52:58.250+02:00', done: false });
      const values = await readRow(created.body.data.id);
      expect(values.meeting).toBe('2024-03-25T13:52:58.250Z');
      expect(values.done).toBe(false);
    });

    it('refuses a bad value of every checked type with 10002 naming the field', async () => {
      const bad: Array<[string, unknown, string]> = [
        ['mobile', 'call me', 'Mobile'],
        ['mail', 'not-an-address', 'Mail'],
        ['amount', 'twelve', 'Amount'],
        ['colour', 'Purple', 'Colour'],
        ['size', ['S', 'M'], 'Size'],
        ['due', '2024-02-30', 'Due'],
        ['meeting', 'tomorrow', 'Meeting'],
        ['province', 'Shanghai', 'Province'],
        ['stars', 11, 'Stars'],
        ['serial', 9, 'Serial'],
        ['done', 'maybe', 'Done'],
        ['place', { x: 200, y: 0 }, 'Place'],
        ['sign', 'scribble', 'Sign'],
        ['opens', '25:00', 'Opens'],
        ['divider', 'text', 'Divider'],
      ];
      for (const [alias, value, name] of bad) {
        const response = await createRow({ title: 'Bad', [alias]: value });
        expect(response.status, alias).toBe(400);
        expect(response.body.error_code, alias).toBe(10002);
        expect(response.body.error_msg, alias).toContain(`fields[1] "${name}"`);
      }
    });

    it('refuses an unknown accountId or department id with 10002', async () => {
      const people = await createRow({ people: ['no-such-account'] });
      expect(people.body.error_code).toBe(10002);
      expect(people.body.error_msg).toContain('"no-such-account"');
      const team = await createRow({ team: ['no-such-department'] });
      expect(team.body.error_code).toBe(10002);
      expect(team.body.error_msg).toContain('"no-such-department"');
    });

    it('refuses a department of another organization', async () => {
      await ctx.database.db.insertInto('organizations').values({ id: 'org-elsewhere', name: 'Elsewhere', created_at: Date.now() }).execute();
      await ctx.database.db
        .insertInto('departments')
        .values({ id: 'dep-elsewhere', organization_id: 'org-elsewhere', parent_id: null, name: 'Theirs', created_at: Date.now() })
        .execute();
      const response = await createRow({ team: ['dep-elsewhere'] });
      expect(response.body.error_code).toBe(10002);
      expect(response.body.error_msg).toContain('"dep-elsewhere"');
    });

    it('stores a type given by public name under its code', async () => {
      expect(byAlias('size').type).toBe('11');
      const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
        name: 'By name',
        fields: [{ name: 'Pick', alias: 'pick', type: 'dropdown', options: [{ value: 'One', index: 1 }] }, { name: 'Region', type: 'Region' }],
      });
      const schema = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${created.body.data.worksheetId}`);
      const types = Object.fromEntries(schema.body.data.fields.map((f) => [f.name, f.type]));
      expect(types).toEqual({ Title: '2', Pick: '11', Region: resolveFieldType('Region', 'type').code });
    });

    it('refuses a planned type in a worksheet definition with 10002 naming it', async () => {
      const response = await ctx.call('POST', '/v3/app/worksheets', {
        name: 'Planned',
        fields: [{ name: 'Title', type: 'Text' }, { name: 'Link', type: '44' }],
      });
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(10002);
      expect(response.body.error_msg).toContain('fields[1].type');
      expect(response.body.error_msg).toContain('Role (44)');
    });
  },
  { TIME_ZONE: 'Asia/Shanghai' },
);
