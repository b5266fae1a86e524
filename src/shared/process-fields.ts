import type { LogicalColumnType } from '../db/dialect/sql-dialect.js';

/**
 * The process system fields of a record (facts §2.2: `wfname` … `wfstatus`): which workflow run
 * the record is in, who started it and when, who must act now and by when, and how it ended. They
 * are columns of every worksheet's row table (migration 0031, `createRowTable`), kept by the
 * workflow runner in the transaction of each step that starts, waits or ends a run
 * (`modules/records/process-state.ts`), and read, filtered and sorted as system fields
 * (`query/query-fields.ts`, `modules/records/row-shape.ts`). `_remainingTime` is not stored: it is
 * read from `_dueAt`.
 */
export const PROCESS_COLUMNS = {
  processName: '_process_name',
  /** A JSON array of account ids; null when nobody must act. */
  nodeAssignees: '_node_assignees',
  initiatedBy: '_initiated_by',
  initiatedAt: '_initiated_at',
  nodeStartedAt: '_node_started_at',
  approvalCompletedAt: '_approval_completed_at',
  dueAt: '_due_at',
  processStatus: '_process_status',
} as const;

export type ProcessColumnKey = keyof typeof PROCESS_COLUMNS;

/** Each process column's logical type (for its DDL). */
export const PROCESS_COLUMN_TYPES: Readonly<Record<ProcessColumnKey, LogicalColumnType>> = {
  processName: 'text',
  nodeAssignees: 'json',
  initiatedBy: 'text',
  initiatedAt: 'timestamp',
  nodeStartedAt: 'timestamp',
  approvalCompletedAt: 'timestamp',
  dueAt: 'timestamp',
  processStatus: 'text',
};

/** `_processStatus` (a Dropdown in the public interface): approved, rejected, aborted, in progress. */
export const PROCESS_STATUSES = ['pass', 'refuse', 'abort', 'other'] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

/** What a step changes of a record's process fields; absent keys stay as they are. */
export type ProcessStatePatch = Partial<{
  processName: string | null;
  /** Account ids; an empty list clears the field. */
  nodeAssignees: string[];
  initiatedBy: string | null;
  initiatedAt: number | null;
  nodeStartedAt: number | null;
  approvalCompletedAt: number | null;
  dueAt: number | null;
  processStatus: ProcessStatus | null;
}>;
