import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { ResolvedReferences } from '../../fields/field-type.js';
import { PROCESS_COLUMNS } from '../../shared/process-fields.js';
import type { ReferenceSet } from './value-codec.js';

/**
 * How the process system fields read in flat rows with `includeSystemFields` (facts §2.2): the
 * name as text, members as Collaborator values (`{accountId, fullname, avatar, status}`), instants
 * as ISO 8601, `_remainingTime` as whole minutes until `_dueAt` (negative once overdue), and
 * `_processStatus` as `pass`, `refuse`, `abort` or `other`. A record no run has shown its process on
 * reads `''`, `[]` and nulls.
 */

/** The columns a read selects for them. */
export const PROCESS_SELECT: readonly string[] = Object.values(PROCESS_COLUMNS);

/** A stored row's process columns, as the driver gave them (JSON decoded by `decodeProcessColumns`). */
interface ProcessRow {
  _process_name?: string | null;
  _node_assignees?: string[] | null;
  _initiated_by?: string | null;
  _initiated_at?: number | null;
  _node_started_at?: number | null;
  _approval_completed_at?: number | null;
  _due_at?: number | null;
  _process_status?: string | null;
}

/** Decodes the JSON of the assignees column (text on SQLite), in place. */
export function decodeProcessColumns(dialect: SqlDialect, row: Record<string, unknown>): void {
  const raw = row[PROCESS_COLUMNS.nodeAssignees];
  if (raw !== undefined && raw !== null) row[PROCESS_COLUMNS.nodeAssignees] = dialect.decode('json', raw);
}

/** The members the process fields name, for resolving with the page's other members. */
export function collectProcessMembers(stored: Record<string, unknown>, refs: ReferenceSet): void {
  const row = stored as ProcessRow;
  if (row._initiated_by) refs.account.add(row._initiated_by);
  for (const id of row._node_assignees ?? []) refs.account.add(id);
}

function member(id: string, refs: ResolvedReferences) {
  const account = refs.accounts.get(id);
  return { accountId: id, fullname: account?.fullname ?? '', avatar: account?.avatar ?? '', status: account?.status ?? 0 };
}

const iso = (instant: number | null | undefined) => (instant === null || instant === undefined ? null : new Date(Number(instant)).toISOString());

/** The keys `presentProcessFields` gives a flat row: each column's under `_` and its name, and `_remainingTime`. */
export const PROCESS_FIELD_KEYS: readonly string[] = [...Object.keys(PROCESS_COLUMNS).map((key) => `_${key}`), '_remainingTime'];

/** The nine process keys of a flat row. */
export function presentProcessFields(stored: Record<string, unknown>, refs: ResolvedReferences, now: number): Record<string, unknown> {
  const row = stored as ProcessRow;
  const due = row._due_at ?? null;
  return {
    _processName: row._process_name ?? '',
    _nodeAssignees: (row._node_assignees ?? []).map((id) => member(id, refs)),
    _initiatedBy: row._initiated_by ? member(row._initiated_by, refs) : null,
    _initiatedAt: iso(row._initiated_at),
    _nodeStartedAt: iso(row._node_started_at),
    _approvalCompletedAt: iso(row._approval_completed_at),
    _dueAt: iso(due),
    _remainingTime: due === null ? null : Math.floor((Number(due) - now) / 60_000),
    _processStatus: row._process_status ?? '',
  };
}
