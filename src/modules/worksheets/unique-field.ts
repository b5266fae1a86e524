import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { createUniqueIndex } from './row-table-ddl.js';

/**
 * Makes an existing field unique. Records that already share a value make the index creation
 * fail; that is the client's data, not a server fault, so it is reported as 100005 naming the
 * field. The caller's transaction then rolls the whole structure change back.
 */
export async function makeFieldUnique(db: Executor, dialect: SqlDialect, worksheetId: string, field: FieldMeta): Promise<void> {
  try {
    await createUniqueIndex(db, worksheetId, field.id);
  } catch (error) {
    if (dialect.classifyError(error).kind !== 'unique') throw error;
    throw new AppError(
      ErrorCode.DuplicateFieldValue,
      409,
      `field "${field.name}" (${field.alias || field.id}) cannot be made unique: some records share the same value; change them first`,
    );
  }
}
