import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Api, authHeaders } from './api.js';
import { ceilingResult, startCeiling, type Ceiling } from './ceiling.js';
import type { BenchContext } from './context.js';
import { freshPostgresSchema, freshSqlite, runStatement, type BenchDatabase } from './database.js';
import { formatLine, formatSummary, writeResults, type WorkloadResult } from './report.js';
import { freePort, projectRoot, runSetup, runTokenCreate, runUserCreate, startServer, type ServerProcess } from './server-process.js';
import { readSettings } from './settings.js';
import { loadTruth } from './truth.js';
import { createBenchSheet, type BenchSheet } from './worksheet.js';
import { batchInsert, batchInsertWithAndWithoutLog } from './workloads/batch-insert.js';
import { getById, getByIdWithToken, sampleRecordPaths } from './workloads/get-by-id.js';
import { listFiltered, W4, W4_MEMBER, W4_ONE_CONNECTION, W4_TOTAL, W4_VIEW } from './workloads/list-filtered.js';
import { listSorted } from './workloads/list-sorted.js';
import { memoryResult } from './workloads/memory.js';
import { pivotByStatus } from './workloads/pivot.js';
import { searchOneWord, W11, W11_NO_TOTAL } from './workloads/search.js';
import { singleCreateWithAndWithoutLog } from './workloads/single-create.js';
import { batchInsertRelated, listWithRelated, type RelationSheets } from './workloads/relations.js';
import { recordLogCost, recordLogPages } from './workloads/record-log.js';
import { chartDataAndSvg } from './workloads/chart.js';
import { getByIdRateLimited, LIMITS_OFF, type SideBySide } from './workloads/rate-limited-get.js';
import { approveTodos } from './workloads/approvals.js';
import { backlogDrain, workflowRuns } from './workloads/workflow-runs.js';
import { knowledgeIngest, knowledgeSearch } from './workloads/knowledge.js';

/**
 * `npm run bench`: the server as a child process on a fresh database, loaded by autocannon from
 * this process. Exits non-zero only when the harness itself fails; missed targets are results.
 */
const settings = (() => {
  try {
    return readSettings(process.env);
  } catch (error) {
    console.error(`Bench settings: ${(error as Error).message}`);
    process.exit(1);
  }
})();
const logFile = join(projectRoot, '.bench', 'server.log');
const ceilingLogFile = join(projectRoot, '.bench', 'ceiling.log');
const profileDir = join(projectRoot, '.bench', 'profiles');
let database: BenchDatabase | undefined;
let server: ServerProcess | undefined;
let ceiling: Ceiling | undefined;
type Workload = [id: string, run: (ctx: BenchContext) => Promise<WorkloadResult | WorkloadResult[]>];

/** The worksheet pair W8 fills and W7 reads. */
let relationSheets: RelationSheets | undefined;

/**
 * BENCH_ONLY: the named workloads and what they stand on (W1 for every read, W8 for W7 and W7a).
 * Nothing named but W6 (always measured): no workload runs.
 */
function selected(workloads: { writes: Workload[]; reads: Workload[] }, only: string[] | undefined): { writes: Workload[]; reads: Workload[] } {
  if (!only) return workloads;
  const reads = workloads.reads.filter(([id]) => only.includes(id.toUpperCase()));
  const wanted = new Set(only);
  if (reads.length) wanted.add('W1');
  if (wanted.has('W7') || wanted.has('W7A')) wanted.add('W8');
  // W15 searches the knowledge worksheet W14 makes.
  if (wanted.has('W15') || wanted.has('W15K')) wanted.add('W14');
  return { writes: workloads.writes.filter(([id]) => wanted.has(id.toUpperCase())), reads };
}

/** The writes fill the table; the reads run after the ceiling is measured. BENCH_MILLION: the load, then W4 on one connection and W5. */
function workloadsOf(
  million: boolean,
  ceiling: () => Ceiling,
  sideBySide: SideBySide,
  restart: (ctx: BenchContext, env: Record<string, string>) => Promise<void>,
  flows: { database: BenchDatabase; appId: string },
): { writes: Workload[]; reads: Workload[] } {
  if (million) {
    return {
      writes: [['W1', batchInsert]],
      reads: [
        ['W4', (ctx) => listFiltered(ctx, W4_ONE_CONNECTION)],
        ['W5', pivotByStatus],
      ],
    };
  }
  return {
    // W1 and W2 alternate with W1n and W2n: the same writes with the record log off, the baseline of its cost (Wlog).
    writes: [
      ['W1', batchInsertWithAndWithoutLog],
      ['W2', singleCreateWithAndWithoutLog],
      [
        'W8',
        async (ctx) => {
          const { result, sheets } = await batchInsertRelated(ctx);
          relationSheets = sheets;
          return result;
        },
      ],
      ['W12', recordLogPages],
      ['W10', approveTodos],
      // The workflow engine: its own worksheets; W9b restarts the server twice (without workers, then with).
      ['W9', (ctx) => workflowRuns(ctx, flows.database, flows.appId)],
      ['W9b', (ctx) => backlogDrain(ctx, flows.database, flows.appId, (env) => restart(ctx, env))],
      // Knowledge bases: their own worksheet, indexed by the server's job worker.
      ['W14', knowledgeIngest],
    ],
    reads: [
      ['W3', (ctx) => getById(ctx, ceiling())],
      ['W3t', getByIdWithToken],
      ['W3r', (ctx) => getByIdRateLimited(ctx, sideBySide)],
      ['W4s', listSorted],
      ['W4', (ctx) => listFiltered(ctx, W4)],
      ['W4t', (ctx) => listFiltered(ctx, W4_TOTAL)],
      ['W4v', (ctx) => listFiltered(ctx, W4_VIEW)],
      ['W4m', (ctx) => listFiltered(ctx, W4_MEMBER)],
      ['W5', pivotByStatus],
      ['W13', chartDataAndSvg],
      ['W11', (ctx) => searchOneWord(ctx, W11)],
      ['W11n', (ctx) => searchOneWord(ctx, W11_NO_TOTAL)],
      ['W7', (ctx) => listWithRelated(ctx, relationSheets!, false)],
      ['W7a', (ctx) => listWithRelated(ctx, relationSheets!, true)],
      ['W15', knowledgeSearch],
    ],
  };
}

/**
 * Waits until the server is idle (under 5 % of a core over half a second, at most 60 s): requests a
 * workload left queued (timed out on the client, still served) and background index builds must not
 * be counted against the next workload.
 */
async function settle(target: ServerProcess): Promise<number> {
  const started = performance.now();
  let before = await target.cpuSeconds();
  while (performance.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await target.cpuSeconds();
    if (now - before < 0.025) break;
    before = now;
  }
  return performance.now() - started;
}

const loads: number[] = [];
const sampleLoad = (): number => {
  const one = loadavg()[0];
  loads.push(one);
  return one;
};

/**
 * W4m's member: a person whose role (scope 0) reads only their own records and hides two fields
 * W4 does not read, with a token; they are then given every record (`_owner`), so W4m's pages are W4's.
 */
async function makeMember(api: Api, bench: BenchDatabase, sheet: BenchSheet, appId: string): Promise<Record<string, string>> {
  const email = 'member@bench.local';
  const accountId = await runUserCreate(bench.url, email);
  const schema = await api.call<{ views: Array<{ id: string }> }>('GET', `/v3/app/worksheets/${sheet.id}`);
  const role = await api.call<{ id: string }>('POST', '/v3/app/roles', {
    name: 'W4m members',
    permissionScope: 0,
    worksheetPermissions: [{ id: sheet.id, recordPermissionInViews: [{ viewId: schema.views[0].id, read: true, edit: false, delete: false }], recordDataScope: { read: 20, edit: 0, delete: 0 }, fieldPermissions: [{ id: sheet.field.notes, read: false }, { id: sheet.field.keywords, read: false }] }],
  });
  await api.call('POST', `/v3/app/roles/${role.id}/members`, { userIds: [accountId] });
  await runStatement(bench, `UPDATE "ws_${sheet.id}" SET _owner = $1`, [accountId]);
  const token = await runTokenCreate(bench.url, email);
  return { authorization: `Bearer ${token}`, 'SVC-Appid': appId, 'content-type': 'application/json' };
}

async function main(): Promise<void> {
  // Every server the bench starts (startServer passes the environment on) serves with these processes.
  process.env.HTTP_PROCESSES = settings.httpProcesses;
  database = settings.postgresUrl ? await freshPostgresSchema(settings.postgresUrl) : await freshSqlite();
  const cpuList = cpus();
  const mode = (settings.quick ? ' (BENCH_QUICK: scaled down)' : settings.million ? ' (BENCH_MILLION: 1,000,000 records, W4 on one connection and W5 only)' : '') + (settings.only ? ` (BENCH_ONLY: ${settings.only.join(', ')})` : '');
  console.log(`Tabularium bench${mode}`);
  console.log(`  engine: ${database.engine} (${database.where})`);
  console.log(`  node ${process.version}, ${cpuList.length} cores (${cpuList[0]?.model.trim() ?? 'unknown'}), shared by the server and autocannon; load average ${sampleLoad().toFixed(2)}`);
  console.log(`  ${settings.records.toLocaleString('en-US')} records, ${settings.seconds} s per timed workload; server log: ${logFile}`);
  console.log(`  server: HTTP_PROCESSES=${settings.httpProcesses} (BENCH_HTTP_PROCESSES); its CPU and memory are those of every process it runs`);

  await mkdir(join(projectRoot, '.bench'), { recursive: true });
  await writeFile(logFile, '');
  await writeFile(ceilingLogFile, '');
  const setup = await runSetup(database.url);
  const port = await freePort();
  const countQueries = database.engine === 'PostgreSQL';
  // Rate limits off (they are on by default): the workloads send thousands of requests a second. W3r turns them on.
  const start = (nodeArgs: string[] = [], env: Record<string, string> = LIMITS_OFF) => startServer({ databaseUrl: database!.url, port, logFile, nodeArgs, countQueries, env });
  server = await start();
  const headers = authHeaders(setup);
  const api = new Api(server.baseUrl, headers);
  const tokenHeaders = async () => ({ authorization: `Bearer ${await runTokenCreate(database!.url, setup.owner.email)}`, 'SVC-Appid': setup.app.appId, 'content-type': 'application/json' });
  const sheet = await createBenchSheet(api);
  let member: Promise<Record<string, string>> | null = null;
  const memberHeaders = () => (member ??= makeMember(api, database!, sheet, setup.app.appId));
  const ctx: BenchContext = { settings, engine: database.engine, server, headers, api, sheet, appId: setup.app.appId, database, tokenHeaders, memberHeaders };
  const idle = await server.memory();

  const results: WorkloadResult[] = [];
  const report = (result: WorkloadResult): void => {
    results.push(result);
    const [line, ...rest] = formatLine(result).split('\n');
    console.log([`${line}  [load ${sampleLoad().toFixed(2)}]`, ...rest].join('\n'));
  };
  // The flags of the servers a workload starts of its own (W3r): --cpu-prof while that workload is profiled.
  let restartArgs: string[] = [];
  const run = async ([id, workload]: Workload): Promise<void> => {
    const profiled = settings.profileWorkload === id.toUpperCase();
    if (profiled) {
      // A fresh server with --cpu-prof just for this workload; stopping it writes the profile.
      await server!.stop();
      restartArgs = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
      server = ctx.server = await start(restartArgs);
    }
    await settle(server!);
    const outcome = await workload(ctx);
    for (const result of Array.isArray(outcome) ? outcome : [outcome]) report(result);
    if (profiled) {
      restartArgs = [];
      await server!.stop();
      const many = id === 'W3r' ? 's (one per server: the file name holds its pid, which W3r and W3r-off give in .bench/last-run.json)' : '';
      console.log(`  CPU profile${many} of the server during ${id} written to ${profileDir} (summarise: npx tsx bench/profile-summary.ts <file>)`);
      server = ctx.server = await start();
    }
  };

  const sideBySide: SideBySide = {
    start: async (envs) => {
      await server!.stop();
      return Promise.all(envs.map(async (env) => startServer({ databaseUrl: database!.url, port: await freePort(), logFile, nodeArgs: restartArgs, countQueries, env })));
    },
    end: async (servers) => {
      await Promise.all(servers.map((side) => side.stop()));
      server = ctx.server = await start();
    },
  };
  const restart = async (context: BenchContext, env: Record<string, string>): Promise<void> => {
    await server!.stop();
    server = context.server = await start([], env);
  };
  const { writes, reads } = selected(workloadsOf(settings.million, () => ceiling!, sideBySide, restart, { database, appId: setup.app.appId }), settings.only);
  for (const workload of writes) await run(workload);
  const logCost = recordLogCost(results);
  if (logCost) report(logCost);
  // Nothing writes from here on: what the table holds is known, and every read answer is checked against it.
  if (reads.length) ctx.truth = await loadTruth(ctx);
  // W3 comes first: it measures the ceiling right before and after itself. The million-record
  // run has no throughput targets, so no ceiling; nor has a BENCH_ONLY run without W3.
  if (!settings.million && reads.some(([id]) => id === 'W3')) {
    ctx.recordPaths = await sampleRecordPaths(ctx);
    ceiling = await startCeiling(ctx, ceilingLogFile);
  }
  for (const workload of reads) await run(workload);
  if (ceiling) {
    report(ceilingResult(ctx, [await ceiling.measure(ctx)], ceiling.bodyBytes, true));
    await ceiling.stop();
  }

  // Which read indexes the lists asked for and got, for the record (each one costs the writes a little).
  const { indexes } = await api.call<{ indexes?: Array<{ name: string; fields: string[] }> }>('GET', `/v3/app/worksheets/${ctx.sheet.id}`);
  const aliasOf = (id: string): string => Object.entries(ctx.sheet.field).find(([, f]) => f === id)?.[0] ?? id;
  if (indexes) console.log(`Indexes of the bench worksheet at the end: ${indexes.map((index) => `(${index.fields.map(aliasOf).join(', ')})`).join(' ') || 'none'}`);

  const memory = memoryResult(idle, await server.memory());
  results.push(memory);
  console.log(formatLine(memory) + (settings.profileWorkload ? ' (profiling run: the server was restarted, memory is not comparable)' : ''));
  console.log(formatSummary(results));
  const loadAverage = { min: Math.min(...loads), max: Math.max(...loads), mean: loads.reduce((a, b) => a + b, 0) / loads.length };
  console.log(`Load average (1 min) during the run: ${loadAverage.min.toFixed(2)}–${loadAverage.max.toFixed(2)}, mean ${loadAverage.mean.toFixed(2)} on ${cpuList.length} cores.`);

  const file = await writeResults(
    projectRoot,
    {
      at: new Date().toISOString(),
      engine: database.engine,
      node: process.version,
      cores: cpuList.length,
      loadAverageAtEnd: loadavg()[0],
      loadAverage,
      quick: settings.quick,
      million: settings.million,
      records: settings.records,
      recordsRead: ctx.truth?.records,
      seconds: settings.seconds,
      ceilingPerSecond: ctx.ceilingPerSecond,
      indexes,
    },
    results,
  );
  console.log(`Results written to ${file}`);
}

async function cleanUp(): Promise<void> {
  await ceiling?.stop().catch((error: unknown) => console.error('could not stop the ceiling server:', error));
  await server?.stop().catch((error: unknown) => console.error('could not stop the server:', error));
  if (database && settings.keepDatabase) console.log(`BENCH_KEEP_DATABASE: the database is kept: ${database.url}`);
  else await database?.dispose().catch((error: unknown) => console.error('could not remove the bench database:', error));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the server`);
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (error) {
  console.error('The bench harness failed:', error);
  // A server that died takes a moment to be reported ended after its connections reset.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const ended = server?.ended();
  if (ended) {
    // The next run truncates the log: its end is kept here.
    const log = await readFile(logFile, 'utf8').catch(() => '');
    console.error(`The server had ended (${ended}) before the harness failed. The end of ${logFile}:\n${log.split('\n').slice(-30).join('\n')}`);
  }
  process.exitCode = 1;
} finally {
  await cleanUp();
}
