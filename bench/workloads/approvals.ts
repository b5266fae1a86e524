import { randomUUID } from 'node:crypto';
import type { BenchContext } from '../context.js';
import { runStatement } from '../database.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { runTokenCreate, runUserCreate } from '../server-process.js';
import { createBenchSheet, recordFields, type BenchSheet } from '../worksheet.js';

const TODOS = 1_000;
const PER_CALL = 100;
const TRIGGER = 'start_w10';
const TODO = '/v3/app/workflow/instance';

interface ListPage {
  instances: Array<{ id: string; workId: string }>;
  total: number;
}

/**
 * Publishes, straight into the tables (as the definitions API will), a workflow on `sheet`: each
 * created record goes through an approval block whose one step the approver decides.
 */
async function publishApprovalFlow(ctx: BenchContext, sheet: BenchSheet, approverId: string): Promise<void> {
  const id = randomUUID();
  const now = Date.now();
  const trigger = { type: 1, alias: TRIGGER, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } };
  const nodes = [
    { id: randomUUID(), alias: 'approval', type: 'approval_block', name: 'Approval', description: '', prev: TRIGGER, parent: null, config: {} },
    { id: randomUUID(), alias: 'approve', type: 'approve', name: 'Approve', description: '', prev: null, parent: 'approval', config: { approvers: [{ kind: 'user', id: approverId }] } },
  ];
  const definition = { workflowId: id, appId: ctx.appId, name: 'Bench W10', version: 1, trigger, nodes };
  await runStatement(
    ctx.database,
    'INSERT INTO workflows (id, app_id, name, description, trigger_type, trigger_alias, trigger_config, trigger_worksheet_id, status, published_version, draft_version, owner_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)',
    [id, ctx.appId, 'Bench W10', '', 1, TRIGGER, JSON.stringify(trigger.config), sheet.id, 'published', 1, 1, 'user-api', now, now],
  );
  await runStatement(ctx.database, 'INSERT INTO workflow_versions (workflow_id, version, definition, published_at, published_by) VALUES ($1, $2, $3, $4, $5)', [id, 1, JSON.stringify(definition), now, 'user-api']);
}

/** Polls the approver's list until it holds `count` to-dos (the server's workers start the runs), at most two minutes. */
async function waitForTodos(ctx: BenchContext, headers: Record<string, string>, count: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 120_000) {
    const response = await fetch(`${ctx.server.baseUrl}${TODO}/list?type=4&pageSize=1`, { headers });
    const total = ((await response.json()) as { data?: ListPage }).data?.total ?? 0;
    if (total >= count) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`W10: the approver's list did not reach ${count} to-dos within two minutes`);
}

/**
 * W10: 1,000 to-dos awaiting one approver (1,000 records created in one batch, each starting a run
 * that waits on an approval), approved through `instance/batch` in the public form, 100 per call,
 * one call after another. The figure is the time from the first call to the last answer; each answer
 * must list its 100 instances as successes. The runs go on in the server's workers meanwhile.
 */
export async function approveTodos(ctx: BenchContext): Promise<WorkloadResult> {
  const sheet = await createBenchSheet(ctx.api, 'Bench W10');
  const email = 'approver@bench.local';
  const approverId = await runUserCreate(ctx.database.url, email);
  const headers = { authorization: `Bearer ${await runTokenCreate(ctx.database.url, email)}`, 'SVC-Appid': ctx.appId, 'content-type': 'application/json' };
  await publishApprovalFlow(ctx, sheet, approverId);
  await ctx.api.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows: Array.from({ length: TODOS }, (_, i) => ({ fields: recordFields(sheet, i + 1) })) });
  const waitedMs = await waitForTodos(ctx, headers, TODOS);
  const listed = (await (await fetch(`${ctx.server.baseUrl}${TODO}/list?type=4&pageSize=${TODOS}`, { headers })).json()) as { data: ListPage };
  const selects = listed.data.instances.map((i) => ({ id: i.id, workId: i.workId, opinion: 'approved by the bench' }));
  if (selects.length !== TODOS) throw new Error(`W10: the approver's list holds ${selects.length} to-dos, expected ${TODOS}`);
  const bodies = Array.from({ length: TODOS / PER_CALL }, (_, i) => JSON.stringify({ type: 4, batchOperationType: 4, selects: selects.slice(i * PER_CALL, (i + 1) * PER_CALL) }));
  let approved = 0;
  const outcome = await runLoad({
    baseUrl: ctx.server.baseUrl,
    headers,
    serverCpuSeconds: () => ctx.server.cpuSeconds(),
    serverQueries: () => ctx.server.queryCount(),
    method: 'POST',
    connections: 1,
    amount: bodies.length,
    timeoutSeconds: 60,
    request: (i) => ({ path: `${TODO}/batch`, body: bodies[i % bodies.length] }),
    checkBody: (body) => {
      const data = (JSON.parse(body) as { data?: { success?: string[]; fail?: unknown[] } }).data;
      approved += data?.success?.length ?? 0;
      return data?.success?.length === PER_CALL && data.fail?.length === 0;
    },
  });
  const left = (await (await fetch(`${ctx.server.baseUrl}${TODO}/list?type=4&pageSize=1`, { headers })).json()) as { data: ListPage };
  return {
    id: 'W10',
    title: `approve ${TODOS.toLocaleString('en-US')} to-dos through instance/batch, ${PER_CALL} per call, one call after another`,
    metrics: [
      { label: 'total', value: outcome.seconds * 1000, unit: 'ms', bound: '<=', target: 3000 },
      { label: '', value: approved / outcome.seconds, unit: 'approvals/s' },
      { label: 'p50', value: outcome.latency.p50, unit: 'ms' },
    ],
    failures: outcome.non2xx + outcome.errors + outcome.badBodies + (approved === TODOS && left.data.total === 0 ? 0 : 1),
    cost: cpuCost(outcome.cpu, outcome.ok, 'request'),
    details: { ...outcome, approved, stillPending: left.data.total, runsReachedTheirApprovalMs: Math.round(waitedMs) },
    note: `the 1,000 runs reached their approval ${(waitedMs / 1000).toFixed(1)} s after the records were created`,
  };
}
