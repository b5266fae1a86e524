import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Api, authHeaders } from './api.js';
import type { BenchContext } from './context.js';
import { freshPostgresSchema, freshSqlite, type BenchDatabase } from './database.js';
import { formatLine, formatSummary, writeResults, type WorkloadResult } from './report.js';
import { freePort, projectRoot, runSetup, startServer, type ServerProcess } from './server-process.js';
import { readSettings } from './settings.js';
import { createBenchSheet } from './worksheet.js';
import { batchInsert } from './workloads/batch-insert.js';
import { getById } from './workloads/get-by-id.js';
import { listSorted } from './workloads/list-sorted.js';
import { memoryResult } from './workloads/memory.js';
import { singleCreate } from './workloads/single-create.js';

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
const profileDir = join(projectRoot, '.bench', 'profiles');
let database: BenchDatabase | undefined;
let server: ServerProcess | undefined;

async function main(): Promise<void> {
  database = settings.postgresUrl ? await freshPostgresSchema(settings.postgresUrl) : await freshSqlite();
  const cpuList = cpus();
  console.log(`Tabularium bench${settings.quick ? ' (BENCH_QUICK: scaled down)' : ''}`);
  console.log(`  engine: ${database.engine} (${database.where})`);
  console.log(`  node ${process.version}, ${cpuList.length} cores (${cpuList[0]?.model.trim() ?? 'unknown'}), shared by the server and autocannon; load average ${loadavg()[0].toFixed(2)}`);
  console.log(`  ${settings.records.toLocaleString('en-US')} records, ${settings.seconds} s per timed workload; server log: ${logFile}`);

  await mkdir(join(projectRoot, '.bench'), { recursive: true });
  await writeFile(logFile, '');
  const setup = await runSetup(database.url);
  const port = await freePort();
  const start = (nodeArgs: string[] = []) => startServer({ databaseUrl: database!.url, port, logFile, nodeArgs });
  server = await start();
  const headers = authHeaders(setup);
  const api = new Api(server.baseUrl, headers);
  const ctx: BenchContext = { settings, server, headers, api, sheet: await createBenchSheet(api) };
  const idle = await server.memory();

  const results: WorkloadResult[] = [];
  const workloads: Array<[string, (ctx: BenchContext) => Promise<WorkloadResult>]> = [
    ['W1', batchInsert],
    ['W2', singleCreate],
    ['W3', getById],
    ['W4', listSorted],
  ];
  for (const [id, workload] of workloads) {
    const profiled = settings.profileWorkload === id;
    if (profiled) {
      // A fresh server with --cpu-prof just for this workload; stopping it writes the profile.
      await server.stop();
      server = ctx.server = await start(['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
    }
    const result = await workload(ctx);
    results.push(result);
    console.log(formatLine(result));
    if (profiled) {
      await server.stop();
      console.log(`  CPU profile of the server during ${id} written to ${profileDir} (summarise: npx tsx bench/profile-summary.ts <file>)`);
      server = ctx.server = await start();
    }
  }
  const memory = memoryResult(idle, await server.memory());
  results.push(memory);
  console.log(formatLine(memory) + (settings.profileWorkload ? ' (profiling run: the server was restarted, memory is not comparable)' : ''));
  console.log(formatSummary(results));

  const file = await writeResults(
    projectRoot,
    { at: new Date().toISOString(), engine: database.engine, node: process.version, cores: cpuList.length, loadAverageAtEnd: loadavg()[0], quick: settings.quick, records: settings.records, seconds: settings.seconds },
    results,
  );
  console.log(`Results written to ${file}`);
}

async function cleanUp(): Promise<void> {
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
  process.exitCode = 1;
} finally {
  await cleanUp();
}
