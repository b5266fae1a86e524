import { sql } from 'kysely';
import type { Api } from '../../bench/api.js';
import type { Executor } from '../../src/db/connection.js';
import { SWEEP_JOBS } from '../helpers/sweep-jobs.js';
import { COUNTER_START, counterWorkflow, storePublishedWorkflow } from '../helpers/workflow-fixtures.js';

/**
 * The counter workflow's worksheet and its check, shared by the workflow crash trials and the
 * several-process test: every stored record was triggered once, so it must have exactly one run,
 * passed, with exactly its four steps, its `hits` "1" (bumped once: "11" is a step applied twice)
 * and its `stage` "done"; every record a client was told was created is stored; no job is left (but
 * the recurring sweeps, which always are).
 */

export interface CounterSheet {
  id: string;
  field: { title: string; hits: string; stage: string };
  workflowId: string;
}

/** Creates the worksheet over the API and publishes the counter workflow on it straight in the database (before any record is written to it). */
export async function createCounterSheet(api: Api, db: Executor, appId: string, name: string): Promise<CounterSheet> {
  const { worksheetId } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
    name,
    fields: [
      { name: 'Title', alias: 'title', type: 'Text', isTitle: true },
      { name: 'Hits', alias: 'hits', type: 'Text' },
      { name: 'Stage', alias: 'stage', type: 'Text' },
    ],
  });
  const schema = await api.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${worksheetId}`);
  const byAlias = Object.fromEntries(schema.fields.map((f) => [f.alias, f.id]));
  const field = { title: byAlias.title, hits: byAlias.hits, stage: byAlias.stage };
  const { trigger, nodes } = counterWorkflow(worksheetId, field);
  const workflowId = await storePublishedWorkflow(db, appId, trigger, nodes, Date.now());
  return { id: worksheetId, field, workflowId };
}

/** Waits until every run of the workflow has ended and no job but the sweeps is queued or running; throws after `timeoutMs`. */
export async function waitForRunsToEnd(db: Executor, sheet: CounterSheet, timeoutMs: number, describe: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await db.selectFrom('workflow_runs').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workflow_id', '=', sheet.workflowId).where('ended_at', 'is', null).executeTakeFirstOrThrow();
    const jobs = await db.selectFrom('background_jobs').select((eb) => eb.fn.countAll<number | string>().as('n')).where('status', 'in', ['queued', 'running']).where('id', 'not in', SWEEP_JOBS).executeTakeFirstOrThrow();
    if (Number(open.n) === 0 && Number(jobs.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`runs still open after ${timeoutMs} ms: ${open.n} runs, ${jobs.n} jobs${describe()}`);
    // Polling the database another process writes: there is nothing to wait on but time.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface ExactlyOnceResult {
  violations: string[];
  records: number;
  runs: number;
}

/** The steps of every run, by sequence number. */
const EXPECTED_STEPS = [COUNTER_START, 'read', 'bump', 'finish'].map((alias, i) => `${i + 1}:${alias}`).join(' → ');

/** Checks the counter worksheet's records, runs, steps and the queue; `acknowledged` are the ids clients were given. */
export async function checkExactlyOnce(db: Executor, sheet: CounterSheet, acknowledged: Iterable<string>): Promise<ExactlyOnceResult> {
  const { rows: records } = await sql<{ id: string; hits: string | null; stage: string | null }>`
    SELECT id, ${sql.ref(sheet.field.hits)} AS hits, ${sql.ref(sheet.field.stage)} AS stage FROM ${sql.table(`ws_${sheet.id}`)} WHERE _deleted_at IS NULL`.execute(db);
  const runs = await db.selectFrom('workflow_runs').select(['id', 'row_id', 'status', 'error']).where('workflow_id', '=', sheet.workflowId).execute();
  const steps = await db
    .selectFrom('workflow_steps')
    .innerJoin('workflow_runs', 'workflow_runs.id', 'workflow_steps.run_id')
    .select(['workflow_steps.run_id', 'workflow_steps.seq', 'workflow_steps.node_alias'])
    .where('workflow_runs.workflow_id', '=', sheet.workflowId)
    .orderBy('workflow_steps.run_id')
    .orderBy('workflow_steps.seq')
    .execute();
  const jobs = await db.selectFrom('background_jobs').select(['id', 'status', 'last_error']).where('id', 'not in', SWEEP_JOBS).execute();

  const violations: string[] = [];
  const stored = new Map(records.map((r) => [r.id, r]));
  for (const id of acknowledged) if (!stored.has(id)) violations.push(`record ${id} was acknowledged but is not stored`);
  const runsByRecord = new Map<string, typeof runs>();
  for (const run of runs) {
    if (!run.row_id || !stored.has(run.row_id)) violations.push(`run ${run.id} is of record ${run.row_id}, which is not stored`);
    else runsByRecord.set(run.row_id, [...(runsByRecord.get(run.row_id) ?? []), run]);
  }
  const stepsByRun = new Map<string, string[]>();
  for (const step of steps) stepsByRun.set(step.run_id, [...(stepsByRun.get(step.run_id) ?? []), `${Number(step.seq)}:${step.node_alias}`]);
  for (const record of records) {
    const mine = runsByRecord.get(record.id) ?? [];
    if (mine.length !== 1) violations.push(`record ${record.id} has ${mine.length} runs, not 1`);
    for (const run of mine) {
      if (run.status !== 'passed') violations.push(`run ${run.id} of record ${record.id} is ${run.status}${run.error ? ` (${run.error})` : ''}, not passed`);
      const got = (stepsByRun.get(run.id) ?? []).join(' → ');
      if (got !== EXPECTED_STEPS) violations.push(`run ${run.id} of record ${record.id} has steps ${got || 'none'}, not ${EXPECTED_STEPS}`);
    }
    if (record.hits !== '1') violations.push(`record ${record.id} was bumped ${record.hits?.length ?? 0} times (hits "${record.hits ?? ''}"), not once`);
    if (record.stage !== 'done') violations.push(`record ${record.id} has stage "${record.stage ?? ''}", not "done"`);
  }
  for (const job of jobs) violations.push(`job ${job.id} is left ${job.status}${job.last_error ? ` (${job.last_error})` : ''}`);
  return { violations, records: records.length, runs: runs.length };
}
