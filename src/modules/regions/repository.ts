import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { MetaSchema } from '../../db/schema.js';
import { containsText, regionsWithin } from '../../query/index.js';

/** A region as stored (`regions`, loaded by migration 0018). */
export interface Region {
  id: string;
  parentId: string | null;
  level: number;
  name: string;
  nameEn: string | null;
  path: string;
  pathEn: string | null;
  last: boolean;
}

const COLUMNS = ['id', 'parent_id', 'level', 'name', 'name_en', 'path', 'path_en', 'last'] as const;

function regionOf(row: Omit<MetaSchema['regions'], 'position'>): Region {
  return { id: row.id, parentId: row.parent_id, level: row.level, name: row.name, nameEn: row.name_en, path: row.path, pathEn: row.path_en, last: Number(row.last) === 1 };
}

/** The regions with these ids (those that exist), in one statement. */
export async function regionsByIds(db: Executor, ids: readonly string[]): Promise<Region[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('regions').select(COLUMNS).where('id', 'in', [...ids]).execute();
  return rows.map(regionOf);
}

/** The regions directly below `parentId` (the top level when null), in their order. */
export async function childrenOf(db: Executor, parentId: string | null): Promise<Region[]> {
  const rows = await db
    .selectFrom('regions')
    .select(COLUMNS)
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .orderBy('position')
    .execute();
  return rows.map(regionOf);
}

/**
 * Regions whose Chinese or English name contains `text` (case-folded alike on both engines), at any
 * level or below `within`; the higher levels first, then in code order; at most `limit`.
 */
export async function searchRegions(db: Executor, dialect: SqlDialect, text: string, within: string | null, limit: number): Promise<Region[]> {
  let query = db
    .selectFrom('regions')
    .select(COLUMNS)
    .where((eb) => eb.or([containsText(dialect, eb.ref('name'), text, 'search'), containsText(dialect, eb.ref('name_en'), text, 'search')]));
  if (within !== null) query = query.where(sql<SqlBool>`${sql.ref('id')} IN (${regionsWithin([within])})`).where('id', '!=', within);
  const rows = await query.orderBy('level').orderBy('id').limit(limit).execute();
  return rows.map(regionOf);
}
