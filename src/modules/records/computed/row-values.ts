import { sql } from 'kysely';
import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { ComputationInput, FieldMeta } from '../../../fields/field-type.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { chunks, writeComputedValues } from './column-updates.js';
import { rowComputation } from './dependencies.js';

/**
 * Recomputes row computations (formulas, concatenations) of some records: reads the inputs of all of
 * them in one statement per chunk of records, evaluates in order (a formula may read another), and
 * writes them back in one statement per chunk.
 */
export async function recomputeRowFields(trx: Executor, dialect: SqlDialect, schema: WorksheetSchema, due: FieldMeta[], rowIds: string[]): Promise<void> {
  if (due.length === 0 || rowIds.length === 0) return;
  const inputIds = new Set<string>();
  for (const field of due) for (const input of rowComputation(field)!.inputs(field)) inputIds.add(input);
  const inputs = [...inputIds].map((id) => schema.byKey.get(id)).filter((f): f is FieldMeta => f !== undefined && f.fieldType.column !== null);
  for (const chunk of chunks(rowIds)) {
    const columns = [sql.ref('id'), ...inputs.map((f) => sql.ref(f.id))];
    const rows = (await sql<Record<string, unknown>>`SELECT ${sql.join(columns)} FROM ${sql.table(schema.table)} WHERE id IN (${sql.join(chunk)})`.execute(trx)).rows;
    const values = new Map<string, Map<string, unknown>>();
    for (const row of rows) {
      const stored = new Map<string, unknown>();
      for (const input of inputs) stored.set(input.id, dialect.decode(input.fieldType.column!, row[input.id] ?? null));
      for (const field of due) {
        const computation = rowComputation(field)!;
        const given = new Map<string, ComputationInput>();
        for (const id of computation.inputs(field)) {
          const input = schema.byKey.get(id);
          if (input) given.set(id, { field: input, stored: stored.get(id) ?? null });
        }
        stored.set(field.id, computation.evaluate(field, given));
      }
      values.set(row.id as string, new Map(due.map((f) => [f.id, stored.get(f.id) ?? null])));
    }
    await writeComputedValues(trx, dialect, schema.table, due, values);
  }
}
