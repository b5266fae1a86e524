import type { ResolvedReferences } from '../../src/fields/field-type.js';

/**
 * What a sample needs from where it runs: a member and a department that exist, and the keys the
 * sample's field gave its options. The unit contract makes them up; the round trip uses the
 * database's own (the owner account made by setup, a department it inserts).
 */
export interface SampleWorld {
  account: { accountId: string; fullname: string; avatar: string; status: number };
  department: { id: string; name: string };
  optionKey(text: string): string;
}

/** A value, or how to make it from the world (ids and option keys are only known there). */
type FromWorld = unknown | ((world: SampleWorld) => unknown);

/** One value of a type: how its field is defined, what is written and what the wire shows. */
export interface FieldSample {
  /** The definition beyond name, alias and type: options, precision, config… */
  definition?: Record<string, unknown>;
  /** The value a client writes; absent when the system assigns it (the first value assigned is read). */
  written?: FromWorld;
  /** The value read back. */
  wire: FromWorld;
}

const optionList = (...texts: string[]) => ({ options: texts.map((value, i) => ({ value, index: i + 1 })) });

/**
 * One sample per ready value-holding type, by code. The contract test requires exactly these
 * codes, so a new type cannot be registered without a value that goes through write, storage and read.
 */
export const FIELD_SAMPLES: Record<string, FieldSample> = {
  '2': { written: 'Hello', wire: 'Hello' },
  '3': { written: '+86 138 0013 8000', wire: '+86 138 0013 8000' },
  '4': { written: '010-12345678#12', wire: '010-12345678#12' },
  '5': { written: 'ada@example.com', wire: 'ada@example.com' },
  '6': { definition: { precision: 2 }, written: '12.5', wire: '12.50' },
  '7': { written: 'E12345678', wire: 'E12345678' },
  '8': { definition: { precision: 2 }, written: 1.005, wire: '1.01' },
  '9': { definition: optionList('Red', 'Green'), written: (w: SampleWorld) => [w.optionKey('Green')], wire: (w: SampleWorld) => [{ key: w.optionKey('Green'), value: 'Green' }] },
  '10': {
    definition: optionList('A', 'B', 'C'),
    written: (w: SampleWorld) => [w.optionKey('C'), 'A'],
    wire: (w: SampleWorld) => [{ key: w.optionKey('C'), value: 'C' }, { key: w.optionKey('A'), value: 'A' }],
  },
  '11': { definition: optionList('S', 'M'), written: 'M', wire: (w: SampleWorld) => [{ key: w.optionKey('M'), value: 'M' }] },
  '15': { written: '2024-02-29', wire: '2024-02-29' },
  '16': { written: '2024-03-25T15:52:58.250+02:00', wire: '2024-03-25T13:52:58.250Z' },
  '19': { written: '310000', wire: { code: '310000', name: '上海市', path: '上海市' } },
  '21': { written: 'https://example.com/x', wire: 'https://example.com/x' },
  '23': { written: 440300, wire: { code: '440300', name: '深圳市', path: '广东省/深圳市' } },
  '24': { written: '310101', wire: { code: '310101', name: '黄浦区', path: '上海市/黄浦区' } },
  '25': { definition: { precision: 0 }, written: 1234.5, wire: '1235' },
  '26': { definition: { subType: 1 }, written: (w: SampleWorld) => [w.account.accountId], wire: (w: SampleWorld) => [w.account] },
  '27': { written: (w: SampleWorld) => [{ id: w.department.id }], wire: (w: SampleWorld) => [w.department] },
  '28': { definition: { max: 10 }, written: '8', wire: '8' },
  '33': { definition: { config: { length: 4 } }, wire: '0001' },
  '36': { written: 'True', wire: true },
  '39': { written: 'QR-1', wire: 'QR-1' },
  '40': { written: { x: 121.47, y: 31.23, address: 'Bund 1', title: 'Office' }, wire: { x: 121.47, y: 31.23, address: 'Bund 1', title: 'Office' } },
  '41': { written: '<p>Hello <b>world</b></p>', wire: '<p>Hello <b>world</b></p>' },
  '42': { written: 'data:image/png;base64,iVBORw0KGgo=', wire: 'data:image/png;base64,iVBORw0KGgo=' },
  '43': { written: 'INVOICE 42', wire: 'INVOICE 42' },
  '46': { definition: { subType: 6 }, written: '09:30', wire: '09:30:00' },
  '47': { written: '4006381333931', wire: '4006381333931' },
};

/** The sample of `code`; a ready value type without one fails here, by name. */
export function sampleOf(code: string): FieldSample {
  const sample = FIELD_SAMPLES[code];
  if (!sample) throw new Error(`no sample value for field type ${code} in test/fields/field-samples.ts`);
  return sample;
}

/** A sample's written or wire value in a world. */
export function inWorld(value: FromWorld, world: SampleWorld): unknown {
  return typeof value === 'function' ? value(world) : value;
}

/** The regions the samples name, as the `regions` table (migration 0018) has them. */
const SAMPLE_REGIONS = new Map([
  ['310000', { name: '上海市', path: '上海市' }],
  ['440300', { name: '深圳市', path: '广东省/深圳市' }],
  ['310101', { name: '黄浦区', path: '上海市/黄浦区' }],
]);

/** The references a read needs to show the world's member and department, and the samples' regions. */
export function referencesOf(world: SampleWorld): ResolvedReferences {
  const { accountId, fullname, avatar, status } = world.account;
  return { accounts: new Map([[accountId, { fullname, avatar, status }]]), departments: new Map([[world.department.id, { name: world.department.name }]]), regions: SAMPLE_REGIONS, records: new Map() };
}
