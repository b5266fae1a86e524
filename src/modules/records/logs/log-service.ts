import { parseDateTime } from '../../../fields/types/date-time.js';
import type { FieldMeta, ResolvedReferences } from '../../../fields/field-type.js';
import { AppError } from '../../../shared/app-error.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import { loadSchema, type WorksheetSchema } from '../../worksheets/index.js';
import { addTitles } from '../links/linked-values.js';
import { linkSideOf } from '../links/link-side.js';
import { cellText } from '../record-markdown.js';
import { resolveReferences } from '../references.js';
import { rowCreation } from '../repository.js';
import { emptyReferenceSet } from '../value-codec.js';
import { LogAction, type FieldChange } from './log-entries.js';
import { creationChanges, creationSource, createdWhileLogged } from './log-creation.js';
import { countLogEntries, listLogEntries, type LogQuery, type StoredLogEntry } from './log-repository.js';
import { callerScope } from '../filter-scope.js';
import { forbidden, requireWorksheetRight, rowsFor, seesField, worksheetGrant } from '../../../access/index.js';

/** What a read of a record's log may ask (the query string, as the routes pass it). */
export interface LogListInput {
  pageSize?: number;
  pageIndex?: number;
  operatorIds?: string[];
  field?: string;
  startDate?: string;
  endDate?: string;
  lastMark?: string;
}

/** How a field change reads in `logData[].editType`: a value replaced, related records added, related records removed. */
export const EditType = { changed: 0, linked: 1, unlinked: 2 } as const;

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `yyyy-MM-dd HH:mm:ss` in TIME_ZONE, ISO 8601, or a day (its start; with `endOfDay` its last millisecond). */
function parseBound(name: string, text: string | undefined, timeZone: string, endOfDay: boolean): number | null {
  if (text === undefined || text.trim() === '') return null;
  const trimmed = text.trim();
  const day = DAY_ONLY.test(trimmed);
  const at = parseDateTime(day ? `${trimmed} 00:00:00` : trimmed, timeZone);
  if (at === undefined) throw AppError.invalidValue(`${name}: "${trimmed.slice(0, 40)}" is not a date-time (yyyy-MM-dd HH:mm:ss in ${timeZone}, or ISO 8601)`);
  return day && endOfDay ? (parseDateTime(`${trimmed} 23:59:59.999`, timeZone) ?? at) : at;
}

function parseCursor(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  if (!/^\d{1,15}$/.test(text.trim())) throw AppError.invalidValue(`lastMark: "${text.slice(0, 40)}" is not a mark this log gave out`);
  return Number(text.trim());
}

/** Operator ids given repeated, as an array, or comma-separated. */
function operatorList(ids: string[] | undefined): string[] {
  return (ids ?? []).flatMap((id) => id.split(',')).map((id) => id.trim()).filter((id) => id !== '');
}

/** The references and titles the entries' values need to read as they read on records. */
async function readingContext(ctx: ServiceContext, schema: WorksheetSchema, entries: ReadEntry[]): Promise<ResolvedReferences> {
  const refs = emptyReferenceSet();
  const titlesWanted = new Map<string, Set<string>>();
  const want = (worksheetId: string, ids: unknown[]) => {
    if (!titlesWanted.has(worksheetId)) titlesWanted.set(worksheetId, new Set());
    for (const id of ids) if (typeof id === 'string') titlesWanted.get(worksheetId)!.add(id);
  };
  for (const { entry, changes } of entries) {
    refs.account.add(entry.operator_id);
    for (const change of changes) {
      const field = schema.byKey.get(change.f);
      if (!field) continue;
      if (field.fieldType.storage === 'links') want(linkSideOf(field).relatedWorksheetId, [...(change.a ?? []), ...(change.r ?? [])]);
      if (field.fieldType.pointsAt === 'record') want(String(field.config.dataSource), [change.o, change.v]);
      for (const stored of [change.o, change.v]) {
        const found = stored === null || stored === undefined ? null : field.fieldType.references?.(stored, field);
        if (found) for (const id of found.ids) refs[found.kind].add(id);
      }
    }
  }
  const resolved = await resolveReferences(ctx.db, refs);
  for (const [worksheetId, ids] of titlesWanted) await addTitles(ctx, worksheetId, [...ids], resolved.records, true);
  const now = ctx.now();
  resolved.fileUrl = (fileId) => ctx.files.links.linkFor(fileId, now);
  resolved.timeZone = ctx.timeZone;
  return resolved;
}

/** A value as the log shows it: as the field reads it (JSON text unless it reads as text), and as readable text. */
function shown(field: FieldMeta | undefined, stored: unknown, refs: ResolvedReferences, createdAt: number): { value: string; text: string } {
  if (stored === null || stored === undefined) return { value: '', text: '' };
  const read = field ? field.fieldType.read(stored, field, refs, { createdAt }) : stored;
  return { value: typeof read === 'string' ? read : JSON.stringify(read), text: cellText(read) };
}

function titlesOf(ids: string[], refs: ResolvedReferences): string {
  return ids.map((id) => refs.records.get(id) ?? id).join(', ');
}

/** One entry's `logData`: a field change per item; a relation's change as its added and its removed records. */
function logData(schema: WorksheetSchema, changes: FieldChange[], refs: ResolvedReferences, createdAt: number) {
  const items = [];
  for (const change of changes) {
    const field = schema.byKey.get(change.f);
    const base = { id: change.f, name: field?.name ?? change.n, type: Number(field?.type ?? change.t), isDeleted: field === undefined };
    if (change.a || change.r) {
      if (change.a) items.push({ ...base, editType: EditType.linked, oldValue: '', oldText: '', newValue: JSON.stringify(change.a), newText: titlesOf(change.a, refs) });
      if (change.r) items.push({ ...base, editType: EditType.unlinked, oldValue: JSON.stringify(change.r), oldText: titlesOf(change.r, refs), newValue: '', newText: '' });
      continue;
    }
    const old = shown(field, change.o, refs, createdAt);
    const now = shown(field, change.v, refs, createdAt);
    items.push({ ...base, editType: EditType.changed, oldValue: old.value, oldText: old.text, newValue: now.value, newText: now.text });
  }
  return items;
}

type ReadEntry = { entry: StoredLogEntry; changes: FieldChange[] };

/** Whether the record has a create entry (made while the log was on) that the query lets through. */
function createMatches(schema: WorksheetSchema, record: { createdAt: number; createdBy: string }, query: LogQuery): boolean {
  if (!createdWhileLogged(schema, record.createdAt)) return false;
  if (query.operatorIds.length > 0 && !query.operatorIds.includes(record.createdBy)) return false;
  return !((query.from !== null && record.createdAt < query.from) || (query.to !== null && record.createdAt > query.to) || query.before === 0);
}

function parsed(entries: StoredLogEntry[]): ReadEntry[] {
  return entries.map((entry) => ({ entry, changes: JSON.parse(entry.changes) as FieldChange[] }));
}

/**
 * The record's create entry (creates write none: it is implied by the record, made while the log
 * was on), with the values it was created with (`log-creation.ts`). It is the oldest entry: `seq`
 * 0, before every written one.
 */
async function createEntry(ctx: ServiceContext, schema: WorksheetSchema, rowId: string, record: { createdAt: number; createdBy: string }): Promise<ReadEntry> {
  const all = await listLogEntries(ctx.db, { worksheetId: schema.id, rowId, operatorIds: [], from: null, to: null, before: null }, null, 0);
  const entry: StoredLogEntry = { seq: 0, action: LogAction.create, source: creationSource(record.createdBy), operator_id: record.createdBy, created_at: record.createdAt, changes: '[]' };
  return { entry, changes: await creationChanges(ctx, schema, rowId, record.createdAt, parsed(all).map((r) => r.changes)) };
}

/**
 * A page of a record's log, newest first: the record may be live or in the recycle bin (its log
 * stays with it there); a record removed for good has none (10007). `field` keeps the entries that
 * changed that field; `lastMark` (given back by each page) continues after the previous page.
 */
export async function listRecordLogs(ctx: ServiceContext, worksheetKey: string, rowId: string, input: LogListInput) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'read');
  const pageSize = input.pageSize ?? 20;
  const pageIndex = input.pageIndex ?? 1;
  const field = input.field === undefined || input.field.trim() === '' ? null : schema.byKey.get(input.field.trim());
  if (field === undefined || (field && !seesField(ctx.actor, schema.id, field.id))) throw AppError.invalidValue(`field: no field "${String(input.field).slice(0, 80)}" in this worksheet`);
  if (!worksheetGrant(ctx.actor, schema.id).actions.log) throw forbidden(ctx.actor, `you may not read the logs of records of the worksheet "${schema.name}"`);
  const query: LogQuery = {
    worksheetId: schema.id,
    rowId,
    operatorIds: operatorList(input.operatorIds),
    from: parseBound('startDate', input.startDate, ctx.timeZone, false),
    to: parseBound('endDate', input.endDate, ctx.timeZone, true),
    before: parseCursor(input.lastMark),
  };
  if (query.from !== null && query.to !== null && query.from > query.to) throw AppError.invalidValue('startDate: after endDate');
  const record = await rowCreation(ctx.db, schema.table, rowId, rowsFor(ctx.actor, callerScope(ctx, schema), 'read'));
  if (!record) throw AppError.notFound(`record "${rowId}" does not exist (or was removed for good, with its log)`);

  // A cursor continues after the previous page: it replaces the page number.
  const offset = query.before === null ? (pageIndex - 1) * pageSize : 0;
  let page: ReadEntry[];
  let total: number;
  if (field) {
    // A field's entries are found in their JSON; a record's log is read whole for it (records have hundreds of entries, not millions).
    const all = parsed(await listLogEntries(ctx.db, query, null, 0));
    const create = createMatches(schema, record, query) ? await createEntry(ctx, schema, rowId, record) : null;
    const matching = [...all, ...(create ? [create] : [])].filter(({ changes }) => changes.some((c) => c.f === field.id));
    total = matching.length;
    page = matching.slice(offset, offset + pageSize);
  } else {
    const [entries, count] = await Promise.all([listLogEntries(ctx.db, query, pageSize, offset), countLogEntries(ctx.db, query)]);
    page = parsed(entries);
    const hasCreate = createMatches(schema, record, query);
    total = count + (hasCreate ? 1 : 0);
    // The create entry comes after every written one: on the page where they end.
    if (hasCreate && count >= offset && count < offset + pageSize) page.push(await createEntry(ctx, schema, rowId, record));
  }
  const refs = await readingContext(ctx, schema, page);
  const hidden = worksheetGrant(ctx.actor, schema.id).hiddenFields;
  const logs = page.map(({ entry, changes }) => {
    const operator = refs.accounts.get(entry.operator_id);
    return {
      operator: { accountId: entry.operator_id, fullname: operator?.fullname ?? '', avatar: operator?.avatar ?? '', isPortal: false, status: operator?.status ?? 1 },
      content: {
        worksheetId: schema.id,
        objectId: rowId,
        uniqueId: String(entry.seq),
        objectType: 2,
        type: entry.source,
        requestType: entry.action,
        _createdAt: new Date(entry.created_at).toISOString(),
        // Changes of fields the caller may not see are left out of the entry.
        logData: logData(schema, hidden.size === 0 ? changes : changes.filter((c) => !hidden.has(c.f)), refs, entry.created_at),
      },
    };
  });
  const last = page.at(-1);
  return { logs, total, lastMark: last ? String(last.entry.seq) : '', flag: offset + page.length < total };
}
