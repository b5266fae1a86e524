import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { compileFilter } from '../../../query/index.js';
import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { FieldMeta, RelatedAggregation } from '../../../fields/field-type.js';
import { relatedSourceOf } from '../../../fields/computed/related-config.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { linkSideOf, type LinkSide } from '../links/link-side.js';
import { chunks, writeComputedValues } from './column-updates.js';
import { relatedComputation } from './dependencies.js';

/** Records locked per statement before their computed values are recomputed (PostgreSQL). */
const LOCK_CHUNK = 10_000;
import type { World } from './world.js';

/** What an aggregation is over no related record. */
function emptyValue(aggregation: RelatedAggregation): unknown {
  return aggregation === 'count' || aggregation === 'filled' || aggregation === 'empty' || aggregation === 'sum' ? 0 : null;
}

/**
 * The aggregate of the related records of one record; with `only` (a rollup's filter), of those it
 * lets through, so that rollups with and without filters are read by the same statement.
 */
function aggregateSql(aggregation: RelatedAggregation, column: RawBuilder<unknown> | null, only: Expression<SqlBool> | null): RawBuilder<unknown> {
  const source = only && column ? sql`CASE WHEN ${only} THEN ${column} END` : column;
  switch (aggregation) {
    case 'count':
      return only ? sql`COUNT(CASE WHEN ${only} THEN 1 END)` : sql`COUNT(*)`;
    case 'filled':
      return sql`COUNT(${source})`;
    case 'empty':
      return only ? sql`SUM(CASE WHEN ${only} AND ${column} IS NULL THEN 1 ELSE 0 END)` : sql`COUNT(*) - COUNT(${source})`;
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

/**
 * What a rollup sums of a choice field: per record, the sum of the scores of its chosen options
 * (empty when nothing is chosen). Option keys are GUIDs, so the tests are exact.
 */
function choiceScoreSql(dialect: SqlDialect, source: FieldMeta, column: RawBuilder<unknown>): RawBuilder<unknown> {
  const scored = source.options.filter((o) => typeof o.score === 'number' && o.score !== 0);
  const terms = scored.map((o) =>
    source.fieldType.column === 'json'
      ? sql`CASE WHEN ${dialect.jsonArrayContainsAny(column, [o.key])} THEN ${sql.lit(o.score!)} ELSE 0 END`
      : sql`CASE WHEN ${column} = ${o.key} THEN ${sql.lit(o.score!)} ELSE 0 END`,
  );
  return sql`CASE WHEN ${column} IS NULL THEN NULL ELSE ${terms.length === 0 ? sql.lit(0) : sql.join(terms, sql` + `)} END`;
}

/** The column a rollup reads of its source: the value, or for a choice the sum of its chosen options' scores. */
function sourceSql(dialect: SqlDialect, relatedTable: string, source: FieldMeta | null, aggregation: RelatedAggregation): RawBuilder<unknown> | null {
  if (!source) return null;
  const column = sql.ref(`${relatedTable}.${source.id}`);
  const numeric = aggregation === 'sum' || aggregation === 'avg' || aggregation === 'min' || aggregation === 'max';
  return numeric && source.fieldType.valueKind === 'choices' ? choiceScoreSql(dialect, source, column) : column;
}

/**
 * The live related records of some records, joined to their link table: the FROM and WHERE both
 * kinds of query share. The related table keeps its own name, so that a rollup's filter, compiled
 * for that worksheet, applies as it is.
 */
function linkedLive(side: LinkSide, rowIds: string[]) {
  const related = sql.table(side.relatedTable);
  return sql`FROM ${sql.table(side.table)} AS l JOIN ${related} ON ${sql.ref(`${side.relatedTable}.id`)} = ${sql.ref(`l.${side.other}`)} AND ${sql.ref(`${side.relatedTable}._deleted_at`)} IS NULL WHERE ${sql.ref(`l.${side.own}`)} IN (${sql.join(rowIds)})`;
}

/** A lookup or rollup with what it reads: its aggregation and the source column (null: a count of records). */
interface Planned {
  field: FieldMeta;
  aggregation: RelatedAggregation;
  source: FieldMeta | null;
  /** A rollup's filter of the related records, compiled for their worksheet. */
  only: Expression<SqlBool> | null;
}

/** When a write happens and in which zone: what a rollup filter's dynamic dates are resolved against. */
export interface ComputeTime {
  now: number;
  timeZone: string;
}

/**
 * Recomputes lookups and rollups of some records in the database. Fields that follow the same
 * relation are computed together: per chunk of records, one statement reads every rollup of them
 * (grouped by record), one reads the source values of every lookup (in link order), and one writes
 * all of them. Records without related records get the empty value.
 */
export async function recomputeRelatedFields(trx: Executor, dialect: SqlDialect, world: World, schema: WorksheetSchema, due: FieldMeta[], rowIds: string[], time: ComputeTime): Promise<void> {
  const byRelation = new Map<string, Planned[]>();
  for (const field of due) {
    const { relationField, sourceField } = relatedSourceOf(field);
    const relation = schema.byKey.get(relationField);
    if (!relation) continue;
    const related = world.get(linkSideOf(relation).relatedWorksheetId);
    const source = related?.byKey.get(sourceField) ?? null;
    const aggregation = relatedComputation(field)!.aggregation(field);
    // A lookup or an aggregate of values needs its source column (removing it is refused while they read it).
    if (!related || (!source?.fieldType.column && aggregation !== 'count')) continue;
    const filter = field.config.filter;
    const only = filter ? compileFilter({ schema: related, dialect, now: time.now, timeZone: time.timeZone, selfAccountId: 'user-workflow' }, filter, `field "${field.name}" config.filter`) : null;
    if (!byRelation.has(relation.id)) byRelation.set(relation.id, []);
    byRelation.get(relation.id)!.push({ field, aggregation, source, only: only && !only.everyRow ? only.expression : null });
  }
  // Two writes linking the same records at once would each count the other's links as absent, and
  // the later would overwrite the earlier's values: the records are locked first (in one order for
  // every writer, so that they wait rather than deadlock), and what is read after the lock includes
  // what the write that held it committed (each READ COMMITTED statement sees what committed before it).
  const lock = dialect.lockRowsSql;
  if (lock && byRelation.size > 0) for (const ids of chunks([...rowIds].sort(), LOCK_CHUNK)) await lock(schema.table, ids).execute(trx);
  for (const [relationId, planned] of byRelation) {
    const side = linkSideOf(schema.byKey.get(relationId)!);
    const aggregates = planned.filter((p) => p.aggregation !== 'lookup');
    const lookups = planned.filter((p) => p.aggregation === 'lookup');
    for (const chunk of chunks(rowIds)) {
      const values = new Map<string, Map<string, unknown>>(chunk.map((id) => [id, new Map(planned.map((p) => [p.field.id, p.aggregation === 'lookup' ? null : emptyValue(p.aggregation)]))]));
      if (aggregates.length > 0) {
        const columns = aggregates.map((p, i) => sql`${aggregateSql(p.aggregation, sourceSql(dialect, side.relatedTable, p.source, p.aggregation), p.only)} AS ${sql.ref(`a${i}`)}`);
        const rows = (await sql<Record<string, unknown>>`SELECT ${sql.ref(`l.${side.own}`)} AS own, ${sql.join(columns)} ${linkedLive(side, chunk)} GROUP BY ${sql.ref(`l.${side.own}`)}`.execute(trx)).rows;
        for (const row of rows) {
          const into = values.get(row.own as string)!;
          aggregates.forEach((p, i) => into.set(p.field.id, row[`a${i}`] === null ? emptyValue(p.aggregation) : Number(row[`a${i}`])));
        }
      }
      if (lookups.length > 0) {
        const columns = lookups.map((p, i) => sql`${sql.ref(`${side.relatedTable}.${p.source!.id}`)} AS ${sql.ref(`s${i}`)}`);
        const rows = (await sql<Record<string, unknown>>`SELECT ${sql.ref(`l.${side.own}`)} AS own, ${sql.join(columns)} ${linkedLive(side, chunk)} ORDER BY l.seq`.execute(trx)).rows;
        for (const row of rows) {
          const into = values.get(row.own as string)!;
          lookups.forEach((p, i) => {
            const source = p.source!;
            const value = dialect.decode(source.fieldType.column!, row[`s${i}`]);
            if (value === null || source.fieldType.isEmpty(value)) return;
            const list = (into.get(p.field.id) as unknown[] | null) ?? [];
            list.push(value);
            into.set(p.field.id, list);
          });
        }
      }
      await writeComputedValues(trx, dialect, schema.table, planned.map((p) => p.field), values);
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
