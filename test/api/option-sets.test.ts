import { expect, it } from 'vitest';
import { createAppWithKey } from '../../src/modules/setup/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf } from '../helpers/record-fixtures.js';

interface SetOption {
  key: string;
  value: string;
  index: number;
  isDeleted: boolean;
  color: string;
  score: number;
}
interface OptionSetOut {
  id: string;
  name: string;
  accountId: string;
  worksheetIds: string[];
  options: SetOption[];
  enableColor: boolean;
  enableScore: boolean;
}
interface FieldOut {
  id: string;
  name: string;
  options: Array<{ key: string; value: string; isDeleted?: boolean }>;
  config: Record<string, unknown>;
}

async function createSet(ctx: ApiContext, body: Record<string, unknown>): Promise<string> {
  const response = await ctx.call<{ optionsetId: string }>('POST', '/v3/app/optionsets', body);
  expect(response.body.error_msg).toBe('');
  return response.body.data.optionsetId;
}

async function listSets(ctx: ApiContext, headers?: Record<string, string>): Promise<OptionSetOut[]> {
  const response = await ctx.call<{ optionsets: OptionSetOut[] }>('GET', '/v3/app/optionsets', undefined, headers);
  expect(response.body.error_msg).toBe('');
  return response.body.data.optionsets;
}

async function setById(ctx: ApiContext, id: string): Promise<OptionSetOut> {
  const found = (await listSets(ctx)).find((s) => s.id === id);
  if (!found) throw new Error(`no option set ${id}`);
  return found;
}

async function fieldOf(ctx: ApiContext, worksheetId: string, fieldId: string): Promise<FieldOut> {
  const response = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`);
  const found = response.body.data.fields.find((f) => f.id === fieldId);
  if (!found) throw new Error(`no field ${fieldId}`);
  return found;
}

const live = (options: Array<{ value: string; isDeleted?: boolean }>) => options.filter((o) => !o.isDeleted).map((o) => o.value);

describeApi('option sets', (ctx) => {
  it('creates a set and lists it with keys, colours, scores and its creator', async () => {
    const id = await createSet(ctx, {
      name: 'Priority',
      options: [
        { value: 'Low', index: 1, color: '#00FF00', score: 1 },
        { value: 'High', index: 2, color: '#FF0000', score: 2.5 },
        { value: 'Negative', index: 3, score: -1 },
      ],
      enableColor: true,
      enableScore: true,
    });
    const set = await setById(ctx, id);
    expect(set).toMatchObject({ name: 'Priority', accountId: 'user-api', worksheetIds: [], enableColor: true, enableScore: true });
    expect(set.options.map((o) => [o.value, o.index, o.isDeleted, o.color, o.score])).toEqual([
      ['Low', 1, false, '#00FF00', 1],
      ['High', 2, false, '#FF0000', 2.5],
      ['Negative', 3, false, '', -1],
    ]);
    expect(new Set(set.options.map((o) => o.key)).size).toBe(3);
  });

  it('refuses duplicate texts (10002), a missing name (10001) and more than 1000 options (100006)', async () => {
    const twice = await ctx.call('POST', '/v3/app/optionsets', { name: 'Twice', options: [{ value: 'A', index: 1 }, { value: 'A', index: 2 }], enableColor: false, enableScore: false });
    expect(twice.body.error_code).toBe(10002);
    expect(twice.body.error_msg).toContain('option set "Twice" options[1].value: "A" appears twice');
    const nameless = await ctx.call('POST', '/v3/app/optionsets', { options: [{ value: 'A', index: 1 }], enableColor: false, enableScore: false });
    expect(nameless.body.error_code).toBe(10001);
    const blank = await ctx.call('POST', '/v3/app/optionsets', { name: '  ', options: [{ value: 'A', index: 1 }] });
    expect(blank.body.error_code).toBe(10001);
    const many = Array.from({ length: 1001 }, (_, i) => ({ value: `o${i}`, index: i + 1 }));
    const over = await ctx.call('POST', '/v3/app/optionsets', { name: 'Many', options: many, enableColor: false, enableScore: false });
    expect(over.body.error_code).toBe(100006);
    expect(over.body.error_msg).toContain('option set "Many": at most 1000 options');
    expect((await listSets(ctx)).map((s) => s.name)).not.toContain('Many');
  });

  it('edits with PUT and the public POST, keeping the keys of kept options and retiring others', async () => {
    const id = await createSet(ctx, { name: 'Status', options: [{ value: 'Open', index: 1 }, { value: 'Done', index: 2 }, { value: 'Dropped', index: 3 }], enableColor: false, enableScore: false });
    const [open, done, dropped] = (await setById(ctx, id)).options;
    const put = await ctx.call('PUT', `/v3/app/optionsets/${id}`, {
      name: 'States',
      options: [
        { key: open.key, value: 'Opened', index: 1 },
        { key: done.key, value: 'Done', index: 2 },
        { key: dropped.key, value: 'Dropped', index: 3, isDeleted: true },
        { value: 'Waiting', index: 4 },
      ],
      enableColor: true,
      enableScore: false,
    });
    expect(put.body.error_msg).toBe('');
    let set = await setById(ctx, id);
    expect(set.name).toBe('States');
    expect(set.enableColor).toBe(true);
    expect(set.options.find((o) => o.key === open.key)?.value).toBe('Opened');
    expect(set.options.find((o) => o.key === dropped.key)?.isDeleted).toBe(true);
    expect(live(set.options)).toEqual(['Opened', 'Done', 'Waiting']);

    // The public service's POST on the set's path edits too; options left out are retired.
    const post = await ctx.call('POST', `/v3/app/optionsets/${id}`, { options: [{ value: 'Done', index: 1 }] });
    expect(post.body.error_msg).toBe('');
    set = await setById(ctx, id);
    expect(set.name).toBe('States');
    expect(live(set.options)).toEqual(['Done']);
    expect(set.options.find((o) => o.value === 'Done')?.key).toBe(done.key);
    expect(set.options.filter((o) => o.isDeleted).map((o) => o.key).sort()).toEqual([open.key, dropped.key, set.options.find((o) => o.value === 'Waiting')!.key].sort());

    const unknownKey = await ctx.call('PUT', `/v3/app/optionsets/${id}`, { options: [{ key: 'nope', value: 'X', index: 1 }] });
    expect(unknownKey.body.error_code).toBe(10002);
    const missing = await ctx.call('PUT', '/v3/app/optionsets/000000000000000000000000', { name: 'X' });
    expect(missing.body.error_code).toBe(10007);
    expect(missing.status).toBe(404);
  });

  it('gives its options to the choice fields that use it; an edit changes every one of them at once', async () => {
    const id = await createSet(ctx, { name: 'Colour', options: [{ value: 'Red', index: 1 }, { value: 'Blue', index: 2 }], enableColor: false, enableScore: false });
    const a = await makeSheet(ctx, 'Cars', [
      { name: 'Name', alias: 'name', type: '2' },
      { name: 'Paint', alias: 'paint', type: 'SingleSelect', dataSource: id },
    ]);
    const b = await makeSheet(ctx, 'Bikes', [
      { name: 'Name', alias: 'name', type: '2' },
      // Options sent for a field using a set are not used.
      { name: 'Frames', alias: 'frames', type: '10', config: { dataSource: id }, options: [{ value: 'Ignored', index: 1 }] },
    ]);
    let paint = await fieldOf(ctx, a.id, a.field.paint);
    expect(live(paint.options)).toEqual(['Red', 'Blue']);
    expect(paint.config.dataSource).toBe(id);
    expect((await fieldOf(ctx, b.id, b.field.frames)).options.map((o) => o.value)).toEqual(['Red', 'Blue']);
    expect((await setById(ctx, id)).worksheetIds.sort()).toEqual([a.id, b.id].sort());

    const red = paint.options.find((o) => o.value === 'Red')!;
    const car = await createRecord(ctx, a, [{ id: a.field.paint, value: red.key }]);
    const bike = await createRecord(ctx, b, [{ id: b.field.frames, value: ['Red', 'Blue'] }]);

    // Retire Red, rename Blue, add Green: both fields change, the records still read "Red".
    const blue = paint.options.find((o) => o.value === 'Blue')!;
    const edit = await ctx.call('PUT', `/v3/app/optionsets/${id}`, { options: [{ key: red.key, value: 'Red', index: 1, isDeleted: true }, { key: blue.key, value: 'Navy', index: 2 }, { value: 'Green', index: 3 }] });
    expect(edit.body.error_msg).toBe('');
    paint = await fieldOf(ctx, a.id, a.field.paint);
    expect(live(paint.options)).toEqual(['Navy', 'Green']);
    expect(live((await fieldOf(ctx, b.id, b.field.frames)).options)).toEqual(['Navy', 'Green']);
    expect(valueOf(await readRecord(ctx, a, car), a.field.paint)).toEqual([{ key: red.key, value: 'Red' }]);
    expect(valueOf(await readRecord(ctx, b, bike), b.field.frames)).toEqual([
      { key: red.key, value: 'Red' },
      { key: blue.key, value: 'Navy' },
    ]);
    // A retired option cannot be chosen any more; a new one can.
    const retired = await ctx.call('POST', `/v3/app/worksheets/${a.id}/rows`, { fields: [{ id: a.field.paint, value: 'Red' }] });
    expect(retired.body.error_code).toBe(10002);
    await createRecord(ctx, a, [{ id: a.field.paint, value: 'Green' }]);

    // Delete is refused while fields use the set, naming them.
    const refused = await ctx.call('DELETE', `/v3/app/optionsets/${id}`);
    expect(refused.body.error_code).toBe(10002);
    expect(refused.body.error_msg).toContain('"Paint" (worksheet "Cars")');
    expect(refused.body.error_msg).toContain('"Frames" (worksheet "Bikes")');

    // A field stops using the set with dataSource "" (it keeps its options); another is removed.
    const stop = await ctx.call('POST', `/v3/app/worksheets/${a.id}/structure`, { editFields: [{ id: a.field.paint, dataSource: '' }] });
    expect(stop.body.error_msg).toBe('');
    paint = await fieldOf(ctx, a.id, a.field.paint);
    expect(paint.config.dataSource).toBeUndefined();
    expect(live(paint.options)).toEqual(['Navy', 'Green']);
    expect((await setById(ctx, id)).worksheetIds).toEqual([b.id]);
    const remove = await ctx.call('POST', `/v3/app/worksheets/${b.id}/structure`, { removeFields: [b.field.frames] });
    expect(remove.body.error_msg).toBe('');
    const deleted = await ctx.call('DELETE', `/v3/app/optionsets/${id}`);
    expect(deleted.body.error_msg).toBe('');
    expect((await listSets(ctx)).map((s) => s.id)).not.toContain(id);
    expect((await ctx.call('DELETE', `/v3/app/optionsets/${id}`)).body.error_code).toBe(10007);
  });

  it('an existing field may start using a set; its old options stay retired so records keep their text', async () => {
    const id = await createSet(ctx, { name: 'Sizes', options: [{ value: 'S', index: 1 }, { value: 'M', index: 2 }], enableColor: false, enableScore: false });
    const sheet = await makeSheet(ctx, 'Shirts', [{ name: 'Name', alias: 'name', type: '2' }, { name: 'Size', alias: 'size', type: '9', options: [{ value: 'Small', index: 1 }] }]);
    const row = await createRecord(ctx, sheet, [{ id: sheet.field.size, value: 'Small' }]);
    const edit = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/structure`, { editFields: [{ id: sheet.field.size, dataSource: id }] });
    expect(edit.body.error_msg).toBe('');
    expect(live((await fieldOf(ctx, sheet.id, sheet.field.size)).options)).toEqual(['S', 'M']);
    expect(valueOf(await readRecord(ctx, sheet, row), sheet.field.size)).toMatchObject([{ value: 'Small' }]);
  });

  it('refuses an unknown set and a set on a field that is not a choice (10002 naming the field)', async () => {
    const id = await createSet(ctx, { name: 'Yes/No', options: [{ value: 'Yes', index: 1 }], enableColor: false, enableScore: false });
    const unknown = await ctx.call('POST', '/v3/app/worksheets', { name: 'Bad', fields: [{ name: 'Pick', type: '9', dataSource: 'no-such-set' }] });
    expect(unknown.body.error_code).toBe(10002);
    expect(unknown.body.error_msg).toContain('field "Pick": dataSource "no-such-set" is not an option set of this application');
    const text = await ctx.call('POST', '/v3/app/worksheets', { name: 'Bad', fields: [{ name: 'Note', type: '2', dataSource: id }] });
    expect(text.body.error_code).toBe(10002);
    expect(text.body.error_msg).toContain('field "Note": only SingleSelect, MultipleSelect and Dropdown fields can use an option set');
  });

  it('a set belongs to its application: others neither see nor use nor change it', async () => {
    const id = await createSet(ctx, { name: 'Mine', options: [{ value: 'A', index: 1 }], enableColor: false, enableScore: false });
    const other = await createAppWithKey(ctx.database.db, 'Other', Date.now());
    const headers = { 'SVC-Appkey': other.appKey, 'SVC-Sign': other.sign };
    expect(await listSets(ctx, headers)).toEqual([]);
    expect((await ctx.call('PUT', `/v3/app/optionsets/${id}`, { name: 'Theirs' }, headers)).body.error_code).toBe(10007);
    expect((await ctx.call('DELETE', `/v3/app/optionsets/${id}`, undefined, headers)).body.error_code).toBe(10007);
    const use = await ctx.call('POST', '/v3/app/worksheets', { name: 'Theirs', fields: [{ name: 'Pick', type: '9', dataSource: id }] }, headers);
    expect(use.body.error_code).toBe(10002);
    expect((await setById(ctx, id)).name).toBe('Mine');
  });

  it('a formula reads a choice as the sum of its chosen options’ scores, and follows a score change', async () => {
    const id = await createSet(ctx, { name: 'Points', options: [{ value: 'One', index: 1, score: 1 }, { value: 'Two', index: 2, score: 2 }, { value: 'Half', index: 3, score: 0.5 }], enableColor: false, enableScore: true });
    const sheet = await makeSheet(ctx, 'Scores', [
      { name: 'Name', alias: 'name', type: '2' },
      { name: 'Pick', alias: 'pick', type: '9', dataSource: id },
      { name: 'Picks', alias: 'picks', type: '10', dataSource: id },
      { name: 'Total', alias: 'total', type: '31', expression: '$pick$ + $picks$' },
    ]);
    const row = await createRecord(ctx, sheet, [{ id: sheet.field.pick, value: 'Two' }, { id: sheet.field.picks, value: ['One', 'Half'] }]);
    expect(Number(valueOf(await readRecord(ctx, sheet, row), sheet.field.total))).toBe(3.5);
    const set = await setById(ctx, id);
    const edit = await ctx.call('PUT', `/v3/app/optionsets/${id}`, { options: set.options.map((o) => ({ key: o.key, value: o.value, index: o.index, score: o.score * 10 })) });
    expect(edit.body.error_msg).toBe('');
    expect(Number(valueOf(await readRecord(ctx, sheet, row), sheet.field.total))).toBe(35);
    // The field shows its options' scores.
    expect((await fieldOf(ctx, sheet.id, sheet.field.pick)).options.map((o) => (o as { score?: number }).score)).toEqual([10, 20, 5]);
  });

  it('a rollup sums the scores of the chosen options of the related records, and follows a score change', async () => {
    const id = await createSet(ctx, { name: 'Effort', options: [{ value: 'S', index: 1, score: 1 }, { value: 'L', index: 2, score: 5 }, { value: 'None', index: 3 }], enableColor: false, enableScore: true });
    const projects = await makeSheet(ctx, 'Projects', [{ name: 'Name', alias: 'name', type: '2' }]);
    const tasks = await makeSheet(ctx, 'Tasks', [
      { name: 'Name', alias: 'name', type: '2' },
      { name: 'Size', alias: 'size', type: '9', dataSource: id },
      { name: 'Tags', alias: 'tags', type: '10', dataSource: id },
      { name: 'Project', alias: 'project', type: '29', subType: 1, dataSource: projects.id, relation: { bidirectional: true } },
    ]);
    const reverse = (await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${projects.id}`)).body.data.fields.find((f) => f.name === 'Tasks')!.id;
    const added = await ctx.call('POST', `/v3/app/worksheets/${projects.id}/structure`, {
      addFields: [
        { name: 'Effort', alias: 'effort', type: '37', config: { relationField: reverse, sourceField: tasks.field.size, aggregation: 'SUM' } },
        { name: 'Tagged', alias: 'tagged', type: '37', config: { relationField: reverse, sourceField: tasks.field.tags, aggregation: 'SUM' } },
      ],
    });
    expect(added.body.error_msg).toBe('');
    const fields = Object.fromEntries((await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${projects.id}`)).body.data.fields.map((f) => [f.name, f.id]));
    const project = await createRecord(ctx, projects, [{ id: projects.field.name, value: 'P' }]);
    await createRecord(ctx, tasks, [{ id: tasks.field.size, value: 'S' }, { id: tasks.field.tags, value: ['S', 'L'] }, { id: tasks.field.project, value: [project] }]);
    await createRecord(ctx, tasks, [{ id: tasks.field.size, value: 'L' }, { id: tasks.field.tags, value: ['None'] }, { id: tasks.field.project, value: [project] }]);
    await createRecord(ctx, tasks, [{ id: tasks.field.project, value: [project] }]);
    let read = await readRecord(ctx, projects, project);
    expect(Number(valueOf(read, fields.Effort))).toBe(6);
    expect(Number(valueOf(read, fields.Tagged))).toBe(6);
    const set = await setById(ctx, id);
    const edit = await ctx.call('PUT', `/v3/app/optionsets/${id}`, { options: set.options.map((o) => ({ key: o.key, value: o.value, index: o.index, score: o.value === 'None' ? 100 : o.score })) });
    expect(edit.body.error_msg).toBe('');
    read = await readRecord(ctx, projects, project);
    expect(Number(valueOf(read, fields.Effort))).toBe(6);
    expect(Number(valueOf(read, fields.Tagged))).toBe(106);
  });
});
