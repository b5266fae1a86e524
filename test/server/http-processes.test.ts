import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, freePort, killAllServers, spawnServer, waitForOutput, waitUntilServing, type ServerProcess } from '../helpers/processes.js';

/**
 * HTTP_PROCESSES=2: a supervisor and two server processes on one port. Node's cluster hands each new
 * connection to the next process in turn, so requests sent each on a connection of its own
 * alternate between the two (checked through the pids of the request log).
 */

interface Envelope {
  success: boolean;
  error_code: number;
  error_msg: string;
  data: Record<string, unknown>;
}

/** One request on a new connection (no keep-alive agent): consecutive calls reach the processes in turn. */
function call(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Envelope }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = request(url, { method, agent: false, headers: { ...headers, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) } }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (received += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(received) as Envelope }));
    });
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

function secretsOf(output: string): Record<string, string> {
  const pick = (pattern: RegExp): string => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`the first-run text lacks ${pattern}:\n${output}`);
    return match[1];
  };
  return { 'SVC-Appkey': pick(/SVC-Appkey\s+(\S+)/), 'SVC-Sign': pick(/SVC-Sign\s+(\S+)/) };
}

/** The pids named by the supervisor's "2 processes serve …, pids A, B" line. */
function servingPids(output: string): number[] {
  const match = /processes serve \S+, pids ([\d, ]+)/.exec(output);
  if (!match) throw new Error(`the supervisor did not say which processes serve:\n${output}`);
  return match[1].split(',').map((pid) => Number(pid.trim()));
}

/** The pids that logged a request to `path` (request logs are JSON lines with the process's pid). */
function pidsThatServed(output: string, path: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"incoming request"') || !line.includes(`"url":"${path}"`)) continue;
    pids.add((JSON.parse(line) as { pid: number }).pid);
  }
  return pids;
}

/** The pids of the processes that said they listen ("Server listening at …" log lines). */
function listeningPids(output: string): number[] {
  return [...output.matchAll(/"pid":(\d+),"hostname":"[^"]*","msg":"Server listening at/g)].map((match) => Number(match[1]));
}

/** Waits until `check` holds (the processes' log lines travel through pino's transport and arrive late). */
async function until(check: () => boolean, what: string, output: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describeEachEngine('HTTP_PROCESSES=2: two server processes under a supervisor', (engine) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let auth: Record<string, string>;
  let worksheetId: string;
  const env = (url: string) => ({ DATABASE_URL: url, HTTP_PROCESSES: '2', NODE_ENV: 'production', LOG_LEVEL: 'info' });

  beforeAll(async () => {
    database = await engine.create();
    server = await spawnServer(['dist/main.js'], env(database.url));
    await waitUntilServing(server);
    await waitForOutput(server, /2 processes serve/, 20_000);
    auth = secretsOf(server.output());
    const created = await call(`${server.url}/v3/app/worksheets`, 'POST', auth, { name: 'Shared', fields: [{ name: 'Title', alias: 'title', type: '2', isTitle: true }] });
    expect(created.body.success).toBe(true);
    worksheetId = String(created.body.data.worksheetId);
  }, 60_000);

  afterAll(async () => {
    await killAllServers();
    await database?.drop();
  });

  it('prints the first secrets once and serves from two processes, each connection from the next', async () => {
    expect(server.output().match(/These secrets are shown once/g)).toHaveLength(1);
    const pids = servingPids(server.output());
    expect(pids).toHaveLength(2);
    for (let i = 0; i < 4; i++) expect((await call(`${server.url}/health`, 'GET', {})).status).toBe(200);
    await until(() => pidsThatServed(server.output(), '/health').size === 2, 'both processes logging a /health request', server.output);
    expect([...pidsThatServed(server.output(), '/health')].sort()).toEqual([...pids].sort());
  });

  it('answers a write that uses a field added through another process, at once', async () => {
    const rows = `${server.url}/v3/app/worksheets/${worksheetId}/rows`;
    // Both processes read (and cache) the worksheet's schema as it is now.
    for (let i = 0; i < 4; i++) expect((await call(`${rows}/list`, 'POST', auth, {})).body.success).toBe(true);
    const added = await call(`${server.url}/v3/app/worksheets/${worksheetId}`, 'POST', auth, { addFields: [{ name: 'Amount', alias: 'amount', type: '6' }] });
    expect(added.body).toMatchObject({ success: true });
    // The next requests reach both processes; each must know the new field without waiting for its cache to age.
    for (let i = 0; i < 4; i++) {
      const written = await call(rows, 'POST', auth, { fields: [{ id: 'title', value: `After ${i}` }, { id: 'amount', value: i }] });
      expect(written.body, `write ${i}`).toMatchObject({ success: true, error_code: 1 });
    }
    const listed = await call(`${rows}/list`, 'POST', auth, { filter: { type: 'condition', field: 'amount', operator: 'ge', value: 0 }, includeTotalCount: true });
    expect(listed.body.data.total).toBe(4);
  });

  it('takes concurrent writes through both processes, every one of them', async () => {
    const rows = `${server.url}/v3/app/worksheets/${worksheetId}/rows`;
    const CHAINS = 8;
    const EACH = 25;
    const outcomes = await Promise.all(
      Array.from({ length: CHAINS }, async (_, chain) => {
        const failures: string[] = [];
        for (let i = 0; i < EACH; i++) {
          const written = await call(rows, 'POST', auth, { fields: [{ id: 'title', value: `Chain ${chain}-${i}` }] });
          if (!written.body.success) failures.push(`${written.status} ${written.body.error_msg}`);
        }
        return failures;
      }),
    );
    expect(outcomes.flat()).toEqual([]);
    const listed = await call(`${rows}/list`, 'POST', auth, { filter: { type: 'condition', field: 'title', operator: 'startswith', value: 'Chain ' }, includeTotalCount: true });
    expect(listed.body.data.total).toBe(CHAINS * EACH);
  });

  it('starts a process that died again, and keeps serving meanwhile', async () => {
    const [first, second] = servingPids(server.output());
    process.kill(second, 'SIGKILL');
    await waitForOutput(server, new RegExp(`process 2 \\(pid ${second}\\) ended \\(signal SIGKILL\\); starting it again`));
    expect((await call(`${server.url}/health`, 'GET', {})).status).toBe(200);
    await until(() => listeningPids(server.output()).length === 3, 'a third process listening', server.output, 20_000);
    const third = listeningPids(server.output())[2];
    expect([first, second]).not.toContain(third);
    expect(alive(first)).toBe(true);
    for (let i = 0; i < 4; i++) expect((await call(`${server.url}/health`, 'GET', {})).status).toBe(200);
    await until(() => pidsThatServed(server.output(), '/health').has(third), 'the new process serving', server.output);
  });

  it('starts every process again when all of them died at once, and the supervisor lives on', async () => {
    const before = listeningPids(server.output());
    const serving = before.filter(alive);
    expect(serving).toHaveLength(2);
    for (const pid of serving) process.kill(pid, 'SIGKILL');
    await until(() => listeningPids(server.output()).length === before.length + 2, 'two new processes listening', server.output, 20_000);
    expect(server.child.exitCode).toBeNull();
    for (let i = 0; i < 4; i++) expect((await call(`${server.url}/health`, 'GET', {})).status).toBe(200);
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const pids = listeningPids(server.output());
    expect(pids).toHaveLength(5);
    expect(await server.stop('SIGTERM')).toBe(0);
    for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false);
  });
});

describeEachEngine('HTTP_PROCESSES=2 on a port that is taken', (engine) => {
  let database: TestDatabase;
  let blocker: Server;
  afterAll(async () => {
    await killAllServers();
    await new Promise((resolve) => blocker?.close(resolve));
    await database?.drop();
  });

  it('stops, naming PORT, instead of starting processes that cannot listen again and again', async () => {
    database = await engine.create();
    const port = await freePort();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const server = await spawnServer(['dist/main.js'], { DATABASE_URL: database.url, HTTP_PROCESSES: '2', PORT: String(port) });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`PORT ${port} is already in use`);
    expect(server.output()).toMatch(/process 1 ended before it served \(exit code 1\): stopping the others/);
  }, 30_000);
});
