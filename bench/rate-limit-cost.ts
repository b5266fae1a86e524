import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { ensureSetup } from '../src/modules/setup/index.js';
import { Api } from './api.js';
import { createBenchSheet, recordFields } from './worksheet.js';
import { LIMITS_OFF, LIMITS_ON } from './workloads/rate-limited-get.js';

/**
 * `npx tsx bench/rate-limit-cost.ts [pairs] [per batch]`: what rate limiting (in memory) costs a get
 * by id, in CPU time, measured so that the machine's other load falls on both sides alike: two apps
 * in this one process on one SQLite file, limits off and on, driven through `app.inject` (16 in
 * flight) in batches that alternate (off/on, then on/off), the process's CPU time per batch, and
 * the median over the pairs. W3r's req/s over HTTP cannot resolve a few per cent on a shared
 * machine; this can. Through `inject` a get costs more than over HTTP (no sockets, but
 * light-my-request), so read the difference in µs, not the ratio.
 */
const [pairs = 60, perBatch = 400] = process.argv.slice(2).map(Number);
const IN_FLIGHT = 16;

const dir = await mkdtemp(join(tmpdir(), 'tabularium-rate-limit-cost-'));
const url = `sqlite:${join(dir, 'bench.db')}`;
const settings = { DATABASE_URL: url, LOG_LEVEL: 'silent', NODE_ENV: 'production' };
const databases = [openDatabase(url), openDatabase(url)];
await migrateToLatest(databases[0]);
const setup = await ensureSetup(databases[0].db, Date.now());
if (!setup.created) throw new Error('a fresh database was already set up');
const [off, on] = await Promise.all([LIMITS_OFF, LIMITS_ON].map((limits, i) => buildApp({ config: loadConfig({ ...settings, ...limits }), database: databases[i], logger: false })));
const auth = { 'SVC-Appkey': setup.setup.app.appKey, 'SVC-Sign': setup.setup.app.sign };

// The bench worksheet and 1,000 records, made over HTTP through the limits-off app.
const api = new Api(await off.listen({ port: 0, host: '127.0.0.1' }), { ...auth, 'content-type': 'application/json' });
const sheet = await createBenchSheet(api);
await api.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows: Array.from({ length: 1000 }, (_, i) => ({ fields: recordFields(sheet, i + 1) })) });
const page = await api.call<{ rows: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 1000, pageIndex: 1, includeTotalCount: false });
const paths = page.rows.map((row) => `/v3/app/worksheets/${sheet.id}/rows/${row.id}`);

let sent = 0;
/** CPU µs of this process per get, over `count` gets sent to `app`. */
async function batch(app: FastifyInstance, count: number): Promise<number> {
  const started = process.cpuUsage();
  let left = count;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) {
        const response = await app.inject({ method: 'GET', url: paths[sent++ % paths.length], headers: auth });
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body.slice(0, 300)}`);
      }
    }),
  );
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  // Warm-up: both run optimised code when measured.
  for (let i = 0; i < 20; i += 1) for (const app of [off, on]) await batch(app, 500);
  const costs = { off: [] as number[], on: [] as number[], ratio: [] as number[] };
  for (let pair = 0; pair < pairs; pair += 1) {
    const first = pair % 2 === 0 ? off : on;
    const a = await batch(first, perBatch);
    const b = await batch(first === off ? on : off, perBatch);
    const [offCost, onCost] = first === off ? [a, b] : [b, a];
    costs.off.push(offCost);
    costs.on.push(onCost);
    costs.ratio.push(onCost / offCost);
  }
  const [offMedian, onMedian] = [median(costs.off), median(costs.on)];
  console.log(`get by id through app.inject, ${pairs} pairs of ${perBatch}: off ${offMedian.toFixed(1)} µs, on ${onMedian.toFixed(1)} µs of CPU per get (medians); on - off ${(onMedian - offMedian).toFixed(1)} µs; on / off ${median(costs.ratio).toFixed(3)} (median of the pairs)`);
} finally {
  await Promise.all([off.close(), on.close()]);
  await Promise.all(databases.map((database) => database.close()));
  await rm(dir, { recursive: true, force: true });
}
