import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { FieldMeta, RelatedAggregation } from '../../../fields/field-type.js';
import { relatedSourceOf } from '../../../fields/computed/related-config.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { linkSideOf, type LinkSide } from '../links/link-side.js';
import { chunks, writeComputedValues } from './column-updates.js';
import { relatedComputation } from './dependencies.js';
import type { World } from './world.js';

/** What an aggregation is over no related record. */
function emptyValue(aggregation: RelatedAggregation): unknown {
  return aggregation === 'count' || aggregation === 'filled' || aggregation === 'empty' || aggregation === 'sum' ? 0 : null;
}

function aggregateSql(aggregation: RelatedAggregation, source: RawBuilder<unknown> | null): RawBuilder<unknown> {
  switch (aggregation) {
    case 'count':
      return sql`COUNT(*)`;
    case 'filled':
      return sql`COUNT(${source})`;
    case 'empty':
      return sql`COUNT(*) - COUNT(${source})`;
    case 'sum':
      return sql`SUM(${source})`;
    case 'avg':
      return sql`AVG(${source})`;
    case 'min':
      return sql`MIN(${source})`;
    default:
      return sql`MAX(${source})`;
  }
}

/** The live related records of some records, joined to their link table: the FROM and WHERE both kinds of query share. */
function linkedLive(side: LinkSide, rowIds: string[]) {
  return sql`FROM ${sql.table(side.table)} AS l JOIN ${sql.table(side.relatedTable)} AS r ON r.id = ${sql.ref(`l.${side.other}`)} AND r._deleted_at IS NULL WHERE ${sql.ref(`l.${side.own}`)} IN (${sql.join(rowIds)})`;
}

/**
 * Recomputes lookups and rollups of some records in the database: per field and chunk of records,
 * one statement reads the aggregates (or, for a lookup, the source values in link order) of their
 * live related records, and one writes them. Records without related records get the empty value.
 */
export async function recomputeRelatedFields(trx: Executor, dialect: SqlDialect, world: World, schema: WorksheetSchema, due: FieldMeta[], rowIds: string[]): Promise<void> {
  for (const field of due) {
    const { relationField, sourceField } = relatedSourceOf(field);
    const relation = schema.byKey.get(relationField);
    if (!relation) continue;
    const side = linkSideOf(relation);
    const related = world.get(side.relatedWorksheetId);
    const source = related?.byKey.get(sourceField);
    const aggregation = relatedComputation(field)!.aggregation(field);
    const sourceColumn = source?.fieldType.column ? sql.ref(`r.${source.id}`) : null;
    for (const chunk of chunks(rowIds)) {
      const values = new Map<string, Map<string, unknown>>(chunk.map((id) => [id, new Map([[field.id, aggregation === 'lookup' ? null : emptyValue(aggregation)]])]));
      if (aggregation === 'lookup') {
        if (!sourceColumn || !source) continue;
        const rows = (await sql<{ own: string; value: unknown }>`SELECT ${sql.ref(`l.${side.own}`)} AS own, ${sourceColumn} AS value ${linkedLive(side, chunk)} ORDER BY l.seq`.execute(trx)).rows;
        const lists = new Map<string, unknown[]>();
        for (const row of rows) {
          const value = dialect.decode(source.fieldType.column!, row.value);
          if (value === null || source.fieldType.isEmpty(value)) continue;
          if (!lists.has(row.own)) lists.set(row.own, []);
          lists.get(row.own)!.push(value);
        }
        for (const [own, list] of lists) values.get(own)!.set(field.id, list);
      } else {
        const rows = (await sql<{ own: string; value: unknown }>`SELECT ${sql.ref(`l.${side.own}`)} AS own, ${aggregateSql(aggregation, sourceColumn)} AS value ${linkedLive(side, chunk)} GROUP BY ${sql.ref(`l.${side.own}`)}`.execute(trx)).rows;
        for (const row of rows) values.get(row.own)!.set(field.id, row.value === null ? emptyValue(aggregation) : Number(row.value));
      }
      await writeComputedValues(trx, dialect, schema.table, [field], values);
    }
  }
}

/** The records of a worksheet that relate, through one of its relation fields, to any of these related records (live or not). */
export async function recordsRelatingTo(trx: Executor, relation: FieldMeta, relatedIds: string[]): Promise<string[]> {
  const side = linkSideOf(relation);
  const found = new Set<string>();
  for (const chunk of chunks(relatedIds)) {
    const rows = (await sql<{ own: string }>`SELECT DISTINCT ${sql.ref(side.own)} AS own FROM ${sql.table(side.table)} WHERE ${sql.ref(side.other)} IN (${sql.join(chunk)})`.execute(trx)).rows;
    for (const row of rows) found.add(row.own);
  }
  return [...found];
}
