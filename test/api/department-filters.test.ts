import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Department fields filter as member fields do, plus `belongsto` / `notbelongsto`: a department or
 * one below it in the organization's tree. The tree: HQ → Sales → Sales East; HQ → Ops; and two
 * departments that name each other as parent (a cycle must not hang the query).
 */
const TREE: Array<[id: string, parent: string | null]> = [
  ['d-hq', null],
  ['d-sales', 'd-hq'],
  ['d-east', 'd-sales'],
  ['d-ops', 'd-hq'],
  ['d-loop-a', 'd-loop-b'],
  ['d-loop-b', 'd-loop-a'],
];

const RECORDS: Array<[title: string, departments?: string[]]> = [
  ['Head office', ['d-hq']],
  ['Sales team', ['d-sales']],
  ['East desk', ['d-east']],
  ['Operations', ['d-ops']],
  ['Shared', ['d-ops', 'd-east']],
  ['Looped', ['d-loop-b']],
  ['Nobody'],
];

describeApi('department filters', (ctx) => {
  let sheet: Sheet;
  const cond = (operator: string, value?: unknown) => ({ type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'dept', operator, ...(value === undefined ? {} : { value }) }] });
  const titles = async (filter: unknown) => {
    const response = await ctx.call<{ rows: WireRecord[]; total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter, sorts: [{ field: 'title', isAsc: true }], pageSize: 100 });
    expect(response.body.error_msg).toBe('');
    return response.body.data.rows.map((row) => row.fields.find((f) => f.id === sheet.field.title)?.value);
  };

  beforeAll(async () => {
    await ctx.database.db
      .insertInto('departments')
      .values(TREE.map(([id, parent]) => ({ id, organization_id: ctx.setup.organizationId, parent_id: parent, name: id, created_at: 1 })))
      .execute();
    sheet = await makeSheet(ctx, 'Departments', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Dept', alias: 'dept', type: '27', subType: 1 },
    ]);
    const rows = RECORDS.map(([title, departments]) => ({ fields: [{ id: 'title', value: title }, ...(departments ? [{ id: 'dept', value: departments }] : [])] }));
    const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows });
    expect(created.body.error_msg).toBe('');
  });

  it('belongsto: the department and every one below it', async () => {
    expect(await titles(cond('belongsto', ['d-sales']))).toEqual(['East desk', 'Sales team', 'Shared']);
    expect(await titles(cond('belongsto', 'd-hq'))).toEqual(['East desk', 'Head office', 'Operations', 'Sales team', 'Shared']);
    expect(await titles(cond('belongsto', [{ id: 'd-east' }]))).toEqual(['East desk', 'Shared']);
  });

  it('notbelongsto: none of them, empty values included', async () => {
    expect(await titles(cond('notbelongsto', ['d-sales']))).toEqual(['Head office', 'Looped', 'Nobody', 'Operations']);
  });

  it('a cycle in the tree ends the walk', async () => {
    expect(await titles(cond('belongsto', ['d-loop-a']))).toEqual(['Looped']);
  });

  it('eq means holding the department itself, not one below it', async () => {
    expect(await titles(cond('eq', ['d-sales']))).toEqual(['Sales team']);
  });

  it('an id of no department matches nothing', async () => {
    expect(await titles(cond('belongsto', ['d-none']))).toEqual([]);
  });

  it('belongsto stays refused on member fields', async () => {
    const response = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: '_owner', operator: 'belongsto', value: ['x'] }] } });
    expect(response.body.error_code).toBe(10002);
    expect(response.body.error_msg).toContain('operator belongsto is not allowed');
  });
});
