import type { LogicalColumnType } from '../db/dialect/sql-dialect.js';
import type { FieldMeta, FieldType } from '../fields/field-type.js';
import type { ConditionKind, QueryField } from './conditions/condition-kind.js';
import { multipleChoiceConditions, singleChoiceConditions } from './conditions/choices.js';
import { dateConditions, dateTimeConditions, timeConditions } from './conditions/dates.js';
import { numberConditions } from './conditions/number.js';
import { checkboxConditions, noConditions, presenceConditions } from './conditions/presence.js';
import { departmentConditions, referenceConditions, singleIdConditions } from './conditions/references.js';
import { regionConditions } from './conditions/regions.js';
import { linkConditions, linkPresenceConditions } from './conditions/links.js';
import { lookupConditions } from './conditions/lookups.js';
import { sourceStandIn } from '../fields/types/lookup.js';
import { textConditions } from './conditions/text.js';
import { processStatusConditions } from './conditions/process-status.js';
import { PROCESS_COLUMNS } from '../shared/process-fields.js';

/** The conditions of each value kind; choices differ by storage (one key, or a JSON array of keys). */
const CONDITIONS_BY_KIND: Record<FieldType['valueKind'], (column: LogicalColumnType | null) => ConditionKind> = {
  text: () => textConditions,
  number: () => numberConditions,
  boolean: () => checkboxConditions,
  date: () => dateConditions,
  datetime: () => dateTimeConditions,
  time: () => timeConditions,
  choices: (column) => (column === 'json' ? multipleChoiceConditions : singleChoiceConditions),
  reference: () => referenceConditions,
  json: () => presenceConditions,
  none: () => noConditions,
};

/** Types whose operators are not their value kind's say so with `filterKind`. */
const CONDITIONS_BY_FILTER_KIND: Record<Exclude<NonNullable<FieldType['filterKind']>, 'lookup'>, ConditionKind> = {
  presence: presenceConditions,
  region: regionConditions,
  department: departmentConditions,
  links: linkConditions,
  linkPresence: linkPresenceConditions,
  recordId: singleIdConditions,
};

/**
 * The conditions of a field: its type's `filterKind`, else its value kind's. A lookup takes its
 * source field's, over the values it holds (the source's type is kept in its config; a lookup of a
 * lookup filters by presence).
 */
function conditionsOf(field: FieldMeta): ConditionKind {
  const type = field.fieldType;
  if (type.filterKind === 'lookup') {
    const source = sourceStandIn(field);
    return lookupConditions(source, source.fieldType.filterKind === 'lookup' ? presenceConditions : conditionsOf(source));
  }
  return type.filterKind ? CONDITIONS_BY_FILTER_KIND[type.filterKind] : CONDITIONS_BY_KIND[type.valueKind](type.column);
}

/** The conditions a worksheet field takes, as its type declares them. */
export function fieldQuery(field: FieldMeta, key: string): QueryField | null {
  const type = field.fieldType;
  if (type.storage === 'none') return null;
  const kind = conditionsOf(field);
  // A value kept outside the row (relations) has no column of its own: its conditions read the link table.
  return { key, name: field.name, column: field.id, columnType: type.column ?? 'text', meta: field, kind };
}

/**
 * A system column, and what it holds: the record id, an instant, a member's account id, a number,
 * text, members (a JSON array of account ids), the process status, or the time left until an
 * instant (`_remainingTime`, which filters by presence and sorts by that instant).
 */
export interface SystemColumn {
  /** How the wire names it (`_createdAt`; V2 names such as `ctime` are aliases). */
  wireName: string;
  name: string;
  column: string;
  columnType: LogicalColumnType;
  holds: 'record id' | 'instant' | 'member' | 'number' | 'text' | 'members' | 'status' | 'time left';
  kind: ConditionKind;
}

const RECORD_ID: SystemColumn = { wireName: 'rowid', name: 'record id', column: 'id', columnType: 'text', holds: 'record id', kind: singleIdConditions };
const CREATED_AT: SystemColumn = { wireName: '_createdAt', name: 'created at', column: '_created_at', columnType: 'timestamp', holds: 'instant', kind: dateTimeConditions };
const UPDATED_AT: SystemColumn = { wireName: '_updatedAt', name: 'updated at', column: '_updated_at', columnType: 'timestamp', holds: 'instant', kind: dateTimeConditions };
const CREATED_BY: SystemColumn = { wireName: '_createdBy', name: 'created by', column: '_created_by', columnType: 'text', holds: 'member', kind: singleIdConditions };
const UPDATED_BY: SystemColumn = { wireName: '_updatedBy', name: 'updated by', column: '_updated_by', columnType: 'text', holds: 'member', kind: singleIdConditions };
const OWNER: SystemColumn = { wireName: '_owner', name: 'owner', column: '_owner', columnType: 'text', holds: 'member', kind: singleIdConditions };
const RECORD_NUMBER: SystemColumn = { wireName: 'autoid', name: 'autoid', column: '_autoid', columnType: 'integer', holds: 'number', kind: numberConditions };
const instant = (wireName: string, name: string, column: string): SystemColumn => ({ wireName, name, column, columnType: 'timestamp', holds: 'instant', kind: dateTimeConditions });
const PROCESS_NAME: SystemColumn = { wireName: '_processName', name: 'process name', column: PROCESS_COLUMNS.processName, columnType: 'text', holds: 'text', kind: textConditions };
const NODE_ASSIGNEES: SystemColumn = { wireName: '_nodeAssignees', name: 'node assignees', column: PROCESS_COLUMNS.nodeAssignees, columnType: 'json', holds: 'members', kind: referenceConditions };
const INITIATED_BY: SystemColumn = { wireName: '_initiatedBy', name: 'initiated by', column: PROCESS_COLUMNS.initiatedBy, columnType: 'text', holds: 'member', kind: singleIdConditions };
const INITIATED_AT = instant('_initiatedAt', 'initiated at', PROCESS_COLUMNS.initiatedAt);
const NODE_STARTED_AT = instant('_nodeStartedAt', 'node started at', PROCESS_COLUMNS.nodeStartedAt);
const APPROVAL_COMPLETED_AT = instant('_approvalCompletedAt', 'approval completed at', PROCESS_COLUMNS.approvalCompletedAt);
const DUE_AT = instant('_dueAt', 'due at', PROCESS_COLUMNS.dueAt);
const REMAINING_TIME: SystemColumn = { wireName: '_remainingTime', name: 'remaining time', column: PROCESS_COLUMNS.dueAt, columnType: 'timestamp', holds: 'time left', kind: presenceConditions };
const PROCESS_STATUS: SystemColumn = { wireName: '_processStatus', name: 'process status', column: PROCESS_COLUMNS.processStatus, columnType: 'text', holds: 'status', kind: processStatusConditions };

/** System fields under their V3 names and the V2 names clients still send. */
const SYSTEM_COLUMNS: ReadonlyMap<string, SystemColumn> = new Map([
  ['rowid', RECORD_ID],
  ['rowId', RECORD_ID],
  ['id', RECORD_ID],
  ['_createdAt', CREATED_AT],
  ['ctime', CREATED_AT],
  ['_updatedAt', UPDATED_AT],
  ['utime', UPDATED_AT],
  ['_createdBy', CREATED_BY],
  ['caid', CREATED_BY],
  ['_updatedBy', UPDATED_BY],
  ['uaid', UPDATED_BY],
  ['_owner', OWNER],
  ['ownerid', OWNER],
  ['autoid', RECORD_NUMBER],
  ['_processName', PROCESS_NAME],
  ['wfname', PROCESS_NAME],
  ['_nodeAssignees', NODE_ASSIGNEES],
  ['wfcuaids', NODE_ASSIGNEES],
  ['_initiatedBy', INITIATED_BY],
  ['wfcaid', INITIATED_BY],
  ['_initiatedAt', INITIATED_AT],
  ['wfctime', INITIATED_AT],
  ['_nodeStartedAt', NODE_STARTED_AT],
  ['wfrtime', NODE_STARTED_AT],
  ['_approvalCompletedAt', APPROVAL_COMPLETED_AT],
  ['wfcotime', APPROVAL_COMPLETED_AT],
  ['_dueAt', DUE_AT],
  ['wfdtime', DUE_AT],
  ['_remainingTime', REMAINING_TIME],
  ['wfftime', REMAINING_TIME],
  ['_processStatus', PROCESS_STATUS],
  ['wfstatus', PROCESS_STATUS],
]);

/** A system field by any of its names, or undefined. */
export function systemColumn(key: string): SystemColumn | undefined {
  return SYSTEM_COLUMNS.get(key);
}

/** A system field records can be sorted by (not members, as member fields cannot be sorted by either), by any of its names, or undefined. */
export function sortableSystemColumn(key: string): SystemColumn | undefined {
  const system = SYSTEM_COLUMNS.get(key);
  return system && system.holds !== 'member' && system.holds !== 'members' ? system : undefined;
}

/** How the wire names a system column (`_created_at` → `_createdAt`), or undefined for other columns. */
export function systemFieldName(column: string): string | undefined {
  for (const system of SYSTEM_COLUMNS.values()) if (system.column === column) return system.wireName;
  return undefined;
}

/** A system field by any of its names, as filters compile it, or undefined. */
export function systemQuery(key: string): QueryField | undefined {
  const system = SYSTEM_COLUMNS.get(key);
  return system && { key, meta: null, name: system.name, column: system.column, columnType: system.columnType, kind: system.kind };
}
