import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { containsText } from '../../query/index.js';

/** SQL of the to-do lists (`GET /v3/app/workflow/instance/list`). */

/** What a list is narrowed by. `assigneeId` (`initiatorId` for the started list) null: everyone's in the application. */
export interface ListFilter {
  appId: string;
  personId: string | null;
  keyword: string | null;
  processId: string | null;
  runStatuses: string[] | null;
  from: number | null;
  to: number | null;
}

const contains = (dialect: SqlDialect, column: string, text: string): Expression<SqlBool> => containsText(dialect, sql.ref(column), text, 'keyword');

/** To-dos of one list type (4 to approve, 3 to fill in, 5 copies, -1 done), with their runs. */
function itemQuery(db: Executor, dialect: SqlDialect, type: number, filter: ListFilter) {
  let query = db.selectFrom('workflow_work_items as w').innerJoin('workflow_runs as r', 'r.id', 'w.run_id').where('w.app_id', '=', filter.appId);
  if (filter.personId !== null) query = query.where('w.assignee_id', '=', filter.personId);
  if (type === -1) query = query.where('w.kind', 'in', [0, 3, 4]).where('w.acted_at', 'is not', null).where('w.action', '<>', 'none');
  else if (type === 5) query = query.where('w.kind', '=', 5);
  // A run that failed leaves its to-dos pending: they are no longer anyone's to decide.
  else query = query.where('w.kind', '=', type).where('w.status', '=', 0).where('r.status', 'in', ['queued', 'running', 'waiting']);
  if (filter.keyword !== null) {
    const keyword = filter.keyword;
    query = query.where((eb) => eb.or([contains(dialect, 'w.process_name', keyword), contains(dialect, 'w.title', keyword)]));
  }
  if (filter.processId !== null) query = query.where('w.workflow_id', '=', filter.processId);
  if (filter.runStatuses !== null) query = query.where('r.status', 'in', filter.runStatuses);
  if (filter.from !== null) query = query.where('w.created_at', '>=', filter.from);
  if (filter.to !== null) query = query.where('w.created_at', '<', filter.to);
  return query;
}

/** A page of to-dos, newest first (done ones by when they were done), and how many match. */
export async function itemPage(db: Executor, dialect: SqlDialect, type: number, filter: ListFilter, limit: number, offset: number) {
  const order = type === -1 ? 'w.acted_at' : 'w.created_at';
  const [rows, count] = await Promise.all([
    itemQuery(db, dialect, type, filter)
      .selectAll('w')
      .select(['r.status as run_status', 'r.initiator_id', 'r.started_at', 'r.ended_at'])
      .orderBy(order, 'desc')
      .orderBy('w.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    itemQuery(db, dialect, type, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Runs with to-dos started by the person (everyone's, for null), of the application. */
function startedQuery(db: Executor, dialect: SqlDialect, filter: ListFilter) {
  let query = db
    .selectFrom('workflow_runs as r')
    .innerJoin('workflows as f', 'f.id', 'r.workflow_id')
    .where('r.app_id', '=', filter.appId)
    .where((eb) => eb.exists(eb.selectFrom('workflow_work_items as w').select('w.id').whereRef('w.run_id', '=', 'r.id')));
  if (filter.personId !== null) query = query.where('r.initiator_id', '=', filter.personId);
  if (filter.keyword !== null) {
    const keyword = filter.keyword;
    query = query.where((eb) =>
      eb.or([contains(dialect, 'f.name', keyword), eb.exists(eb.selectFrom('workflow_work_items as t').select('t.id').whereRef('t.run_id', '=', 'r.id').where(contains(dialect, 't.title', keyword)))]),
    );
  }
  if (filter.processId !== null) query = query.where('r.workflow_id', '=', filter.processId);
  if (filter.runStatuses !== null) query = query.where('r.status', 'in', filter.runStatuses);
  if (filter.from !== null) query = query.where('r.started_at', '>=', filter.from);
  if (filter.to !== null) query = query.where('r.started_at', '<', filter.to);
  return query;
}

/** A page of started instances, newest first, and how many match. */
export async function startedPage(db: Executor, dialect: SqlDialect, filter: ListFilter, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    startedQuery(db, dialect, filter)
      .select(['r.id', 'r.workflow_id', 'r.status', 'r.cursor', 'r.initiator_id', 'r.started_at', 'r.ended_at', 'f.name as process_name'])
      .orderBy('r.started_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    startedQuery(db, dialect, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
