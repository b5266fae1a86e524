import { describe, expect, it } from 'vitest';
import type { ResolvedReferences } from '../../src/fields/field-type.js';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { caught, expectBadValue, fieldOf, readerOf, writerOf } from './field-fixture.js';

const refs: ResolvedReferences = {
  accounts: new Map([
    ['acc-1', { fullname: 'Ada', avatar: 'https://127.0.0.1/a.png', status: 1 }],
    ['acc-2', { fullname: 'Bo', avatar: '', status: 4 }],
  ]),
  departments: new Map([['dep-1', { name: 'Sales' }]]),
  regions: new Map(),
  records: new Map(),
};

describe.each([
  ['26', 'accountId', 'account'],
  ['27', 'id', 'department'],
] as const)('reference type %s', (code, idKey, kind) => {
  const write = writerOf(code);
  const type = fieldTypeOf(code);

  it('stores an id array from ids, one id, or objects, once each', () => {
    expect(write(['x-1', 'x-2'])).toEqual(['x-1', 'x-2']);
    expect(write('x-1')).toEqual(['x-1']);
    expect(write([{ [idKey]: 'x-1' }, { [idKey]: 'x-2', name: 'ignored' }])).toEqual(['x-1', 'x-2']);
    expect(write({ [idKey]: 'x-3' })).toEqual(['x-3']);
    expect(write(['x-1', 'x-1', { [idKey]: 'x-1' }])).toEqual(['x-1']);
    expect(write([])).toBeNull();
  });

  it('reports the ids it refers to, for the existence check', () => {
    expect(type.references!(['x-1', 'x-2'], fieldOf(code))).toEqual({ kind, ids: ['x-1', 'x-2'] });
    expect(type.references!(null, fieldOf(code))).toBeNull();
  });

  it('allows one id when subType is 0, several otherwise', () => {
    const single = fieldOf(code, { subType: 0 });
    expect(write(['x-1'], single)).toEqual(['x-1']);
    expect(expectBadValue(() => write(['x-1', 'x-2'], single)).message).toContain(`takes one ${kind}, got 2`);
    expect(write(['x-1', 'x-2'], fieldOf(code, { subType: 1 }))).toEqual(['x-1', 'x-2']);
  });

  it('refuses values that are not ids with 10002', () => {
    for (const bad of [42, true, [''], [null], [{ other: 'x-1' }], [{ [idKey]: 7 }]]) expectBadValue(() => write(bad));
  });

  it('checks subType at definition: 0 or 1', () => {
    expect(type.prepare!({ name: 'Who', options: [], config: { subType: 0 } }, null).config).toEqual({ subType: 0 });
    const error = caught(() => type.prepare!({ name: 'Who', options: [], config: { subType: 2 } }, null));
    expect(error.code).toBe(10002);
    expect(error.message).toContain('"Who"');
  });

  it('counts an empty list as empty', () => {
    expect(type.isEmpty!(null)).toBe(true);
    expect(type.isEmpty!([])).toBe(true);
    expect(type.isEmpty!(['x-1'])).toBe(false);
  });
});

describe('26 Collaborator read', () => {
  const read = readerOf('26');
  it('reads [{accountId, fullname, avatar, status}] from the resolved accounts', () => {
    expect(read(['acc-1', 'acc-2'], fieldOf('26'), refs)).toEqual([
      { accountId: 'acc-1', fullname: 'Ada', avatar: 'https://127.0.0.1/a.png', status: 1 },
      { accountId: 'acc-2', fullname: 'Bo', avatar: '', status: 4 },
    ]);
    expect(read(['acc-gone'], fieldOf('26'), refs)).toEqual([{ accountId: 'acc-gone', fullname: '', avatar: '', status: 0 }]);
    expect(read(null, fieldOf('26'), refs)).toEqual([]);
  });
});

describe('27 Department read', () => {
  const read = readerOf('27');
  it('reads [{id, name}] from the resolved departments', () => {
    expect(read(['dep-1', 'dep-gone'], fieldOf('27'), refs)).toEqual([
      { id: 'dep-1', name: 'Sales' },
      { id: 'dep-gone', name: '' },
    ]);
    expect(read(null, fieldOf('27'), refs)).toEqual([]);
  });
});
