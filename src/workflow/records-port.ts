import { createRecord, deleteRecord, getRecord, listRecords, listRelated, updateRecord } from '../modules/records/index.js';
import type { FieldValueInput } from '../modules/records/value-codec.js';
import type { ServiceContext } from '../shared/service-context.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { NodeRecord, RecordsPort } from './node-type.js';

/** A flat record keyed by field id (`useFieldIdAsKey`), as nodes see it: its id apart from its values. */
function nodeRecord(worksheetId: string, flat: Record<string, unknown>): NodeRecord {
  // A loop, not `{ rowid, id, ...fields }`: rest copies of rows this wide take V8's slow path, twice per run.
  const fields: Record<string, unknown> = {};
  for (const key in flat) if (key !== 'rowid' && key !== 'id') fields[key] = flat[key];
  return { worksheetId, rowId: String(flat.rowid ?? flat.id), fields };
}

const SHAPE = { useFieldIdAsKey: true, includeSystemFields: true } as const;

/**
 * Records for nodes, through the record service as the workflow's pseudo-user: permissions, business
 * rules, computed fields, the record log and the outbox of further workflows all apply. `ctx` acts
 * in the step's transaction for nodes whose writes commit with their step.
 */
export function recordsPort(ctx: ServiceContext): RecordsPort {
  return {
    async get(worksheetId, rowId) {
      try {
        return nodeRecord(worksheetId, (await getRecord(ctx, worksheetId, rowId, SHAPE)) as Record<string, unknown>);
      } catch (error) {
        if (error instanceof AppError && error.code === ErrorCode.NotFound) return null;
        throw error;
      }
    },
    async list(worksheetId, filter, limit, sorts) {
      const page = await listRecords(ctx, worksheetId, { ...SHAPE, filter: filter ?? undefined, pageSize: limit, pageIndex: 1, includeTotalCount: false, ...(sorts ? { sorts } : {}) });
      return (page.rows as Array<Record<string, unknown>>).map((row) => nodeRecord(worksheetId, row));
    },
    async related(worksheetId, rowId, fieldId, limit) {
      const page = await listRelated(ctx, worksheetId, rowId, fieldId, { useFieldIdAsKey: true, isReturnSystemFields: true, pageSize: limit, pageIndex: 1 });
      return (page.rows as Array<Record<string, unknown>>).map((row) => {
        const { rowId: id, fields } = nodeRecord('', row);
        return { rowId: id, fields };
      });
    },
    async create(worksheetId, fields: FieldValueInput[]) {
      return (await createRecord(ctx, worksheetId, fields)).id;
    },
    async update(worksheetId, rowId, fields) {
      await updateRecord(ctx, worksheetId, rowId, fields);
    },
    async delete(worksheetId, rowId) {
      await deleteRecord(ctx, worksheetId, rowId, false);
    },
  };
}
