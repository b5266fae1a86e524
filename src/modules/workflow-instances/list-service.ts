import { DateTime } from 'luxon';
import { administers } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import * as listRepository from './list-repository.js';
import * as repository from './repository.js';
import { INSTANCE_STATUS, iso, runStatusesOf } from './statuses.js';

/** The list types (facts §7.6 tabs): 4 to approve, 3 to fill in, 5 copied to me, 0 started by me, -1 done by me. */
export const LIST_TYPES = [4, 3, 5, 0, -1] as const;

export interface ListInput {
  type?: number;
  keyword?: string;
  processId?: string;
  status?: number;
  startDate?: string;
  endDate?: string;
  pageIndex?: number;
  pageSize?: number;
}

/** A day (`YYYY-MM-DD`, in the server's time zone) or an ISO 8601 time, as epoch ms; a day's end is the next day's start. */
function timeOf(text: string | undefined, key: string, timeZone: string, end: boolean): number | null {
  if (text === undefined || text.trim() === '') return null;
  const value = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = DateTime.fromISO(value, { zone: timeZone });
    if (day.isValid) return (end ? day.plus({ days: 1 }) : day).startOf('day').toMillis();
  } else {
    const instant = DateTime.fromISO(value, { zone: timeZone });
    if (instant.isValid) return instant.toMillis() + (end ? 1 : 0);
  }
  throw AppError.invalidValue(`${key}: "${value.slice(0, 40)}" is not a date (YYYY-MM-DD) or an ISO 8601 time`);
}

/**
 * Whose to-dos: a person's own; an app key that administers its application (every key but a custom
 * one) sees everyone's (null); a custom key, which is no person and no administrator, its own
 * pseudo-user's, that is none.
 */
const personOf = (ctx: ServiceContext): string | null => ctx.actor.userId ?? (administers(ctx.actor) ? null : ctx.actor.accountId);

function filterOf(ctx: ServiceContext, input: ListInput): listRepository.ListFilter {
  const keyword = input.keyword?.trim() ?? '';
  if (input.status !== undefined && runStatusesOf(input.status).length === 0) throw AppError.invalidValue(`status: ${input.status} is not an instance status (1 running, 2 passed, 3 aborted, 4 failed, 5 rejected)`);
  return {
    appId: ctx.actor.appId,
    personId: personOf(ctx),
    keyword: keyword === '' ? null : keyword,
    processId: input.processId?.trim() || null,
    runStatuses: input.status === undefined ? null : runStatusesOf(input.status),
    from: timeOf(input.startDate, 'startDate', ctx.timeZone, false),
    to: timeOf(input.endDate, 'endDate', ctx.timeZone, true),
  };
}

const person = (names: Map<string, string>, id: string | null) => (id === null ? null : { accountId: id, fullname: names.get(id) ?? id });

/** To-dos of types 4, 3, 5 and -1: one entry per to-do. */
async function itemList(ctx: ServiceContext, type: number, filter: listRepository.ListFilter, pageSize: number, offset: number) {
  const { rows, total } = await listRepository.itemPage(ctx.db, ctx.dialect, type, filter, pageSize, offset);
  const names = await repository.accountNames(ctx.db, rows.flatMap((r) => [r.assignee_id, r.initiator_id]));
  const instances = rows.map((row) => ({
    id: row.run_id,
    workId: row.id,
    type: Number(row.kind),
    processId: row.workflow_id,
    processName: row.process_name,
    title: row.title,
    nodeAlias: row.node_alias,
    nodeName: row.node_name,
    status: INSTANCE_STATUS[row.run_status] ?? 1,
    workStatus: Number(row.status),
    action: row.action,
    opinion: row.opinion,
    note: row.note,
    assignee: person(names, row.assignee_id),
    initiator: person(names, row.initiator_id),
    worksheetId: row.worksheet_id,
    rowId: row.row_id,
    createdAt: iso(row.created_at)!,
    actedAt: iso(row.acted_at),
    dueAt: iso(row.due_at),
    startedAt: iso(row.started_at)!,
    endedAt: iso(row.ended_at),
  }));
  return { instances, total };
}

/** Instances started (type 0): one entry per run, with where it waits and the initiator's resubmit to-do when it was returned. */
async function startedList(ctx: ServiceContext, filter: listRepository.ListFilter, pageSize: number, offset: number) {
  const { rows, total } = await listRepository.startedPage(ctx.db, ctx.dialect, filter, pageSize, offset);
  const items = await repository.itemsOfRuns(ctx.db, rows.map((r) => r.id));
  const names = await repository.accountNames(ctx.db, [...rows.map((r) => r.initiator_id), ...items.map((i) => i.assignee_id)]);
  const instances = rows.map((run) => {
    const own = items.filter((i) => i.run_id === run.id);
    const pending = own.filter((i) => Number(i.status) === 0 && Number(i.kind) !== 5);
    const resubmit = pending.find((i) => Number(i.kind) === 0);
    return {
      id: run.id,
      workId: resubmit?.id ?? null,
      type: 0,
      processId: run.workflow_id,
      processName: run.process_name,
      title: own[0]?.title ?? '',
      nodeAlias: pending[0]?.node_alias ?? run.cursor,
      nodeName: pending[0]?.node_name ?? null,
      status: INSTANCE_STATUS[run.status] ?? 1,
      workStatus: null,
      assignees: pending.map((i) => person(names, i.assignee_id)),
      initiator: person(names, run.initiator_id),
      startedAt: iso(run.started_at)!,
      endedAt: iso(run.ended_at),
    };
  });
  return { instances, total };
}

/**
 * The caller's to-do list of one type (default 4), newest first, narrowed by keyword (the
 * workflow's name or the record's title), workflow, instance status and dates, in pages.
 */
export async function listInstances(ctx: ServiceContext, input: ListInput) {
  const type = input.type ?? 4;
  if (!(LIST_TYPES as readonly number[]).includes(type)) throw AppError.invalidValue(`type: ${type} is not a list type (4 to approve, 3 to fill in, 5 copied to me, 0 started by me, -1 done)`);
  const filter = filterOf(ctx, input);
  const pageSize = input.pageSize ?? 20;
  const offset = ((input.pageIndex ?? 1) - 1) * pageSize;
  return type === 0 ? startedList(ctx, filter, pageSize, offset) : itemList(ctx, type, filter, pageSize, offset);
}
