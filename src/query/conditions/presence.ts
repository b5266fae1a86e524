import { sql, type SqlBool } from 'kysely';
import { isNotNull, isNull, type ConditionKind } from './condition-kind.js';

/** Values that can only be asked whether they are there (Location, and later attachments, rich text…). */
export const presenceConditions: ConditionKind = {
  operators: { isempty: isNull, isnotempty: isNotNull },
};

/** Checkbox: empty means unchecked, as the public interface has it. */
export const checkboxConditions: ConditionKind = {
  operators: {
    isempty: ({ column, dialect }) => sql<SqlBool>`(${column} IS NULL OR ${column} = ${dialect.encode('boolean', false)})`,
    isnotempty: ({ column, dialect }) => sql<SqlBool>`${column} = ${dialect.encode('boolean', true)}`,
  },
};

/** Layout fields hold no value: no operator applies. */
export const noConditions: ConditionKind = { operators: {} };
