import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { WorksheetSchema } from '../worksheets/index.js';

/**
 * Runs a write and turns a unique-index violation into 100005 naming the field. The driver
 * names the column (SQLite) or the index `ux_<worksheet>_<field>` (PostgreSQL); both end in
 * the field id.
 */
export async function reportingDuplicates<T>(dialect: SqlDialect, schema: WorksheetSchema, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const failure = dialect.classifyError(error);
    if (failure.kind !== 'unique') throw error;
    const field = schema.fields.find((f) => failure.target.endsWith(f.id));
    const name = field ? `"${field.name}" (${field.alias || field.id})` : 'a unique field';
    throw new AppError(ErrorCode.DuplicateFieldValue, 409, `field ${name} must be unique: another record already has this value`);
  }
}
