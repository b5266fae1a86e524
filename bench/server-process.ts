import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The project root: the server is started from its build (dist/), like in production. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** What `tabularium setup --json` prints. */
export interface SetupResult {
  organizationId: string;
  owner: { accountId: string; email: string };
  app: { appId: string; appKey: string; secretKey: string; sign: string };
}

/** Runs first-run setup on the database with the CLI, as an operator would, and returns the credentials. */
export async function runSetup(databaseUrl: string): Promise<SetupResult> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/tabularium.js', 'setup', '--json'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  const parsed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as SetupResult;
  if (!parsed.app?.appKey || !parsed.app.sign) throw new Error(`setup --json printed no app key: ${stdout}`);
  return parsed;
}

/** Makes a personal access token for the owner with the CLI (every scope, never expiring), for W3t. */
export async function runTokenCreate(databaseUrl: string, email: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/tabularium.js', 'tokens', 'create', '--user', email, '--scopes', 'all', '--name', 'bench', '--json'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  const parsed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { token?: string };
  if (!parsed.token) throw new Error(`tokens create --json printed no token: ${stdout}`);
  return parsed.token;
}

/** Makes a person in the organization with the CLI (W4m's member) and returns their account id. */
export async function runUserCreate(databaseUrl: string, email: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/tabularium.js', 'users', 'create', '--email', email, '--name', 'Bench member', '--password', 'bench-member-password', '--json'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  const parsed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { user?: { accountId?: string }; accountId?: string };
  const accountId = parsed.user?.accountId ?? parsed.accountId;
  if (!accountId) throw new Error(`users create --json printed no account id: ${stdout}`);
  return accountId;
}

/** A port nobody listens on right now, on the loopback address. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resident memory of a process, from /proc (Linux only). */
export interface Memory {
  /** All processes added up (with HTTP_PROCESSES > 1: the supervisor and every server process). */
  rssMb: number;
  /** The peak resident sizes since the processes started, added up. */
  peakRssMb: number;
  /** The largest process's resident size (the one server process, or the largest of several). */
  largestRssMb: number;
  processes: number;
}

/**
 * A process and every process under it (the server processes of HTTP_PROCESSES > 1 run under a
 * supervisor), from /proc/<pid>/task/<tid>/children (Linux only). A process that ends while it is
 * read is left out.
 */
export async function processTree(pid: number): Promise<number[]> {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const tasks = await readdir(`/proc/${tree[i]}/task`).catch(() => [] as string[]);
    for (const task of tasks) {
      const children = await readFile(`/proc/${tree[i]}/task/${task}/children`, 'utf8').catch(() => '');
      tree.push(...children.split(' ').filter(Boolean).map(Number));
    }
  }
  return tree;
}

/** Resident memory of a process and the processes under it, added up. */
export async function memoryOf(pid: number): Promise<Memory> {
  const memory: Memory = { rssMb: 0, peakRssMb: 0, largestRssMb: 0, processes: 0 };
  for (const member of await processTree(pid)) {
    const status = await readFile(`/proc/${member}/status`, 'utf8').catch(() => '');
    if (status === '') continue;
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    memory.rssMb += kb('VmRSS') / 1024;
    memory.peakRssMb += kb('VmHWM') / 1024;
    memory.largestRssMb = Math.max(memory.largestRssMb, kb('VmRSS') / 1024);
    memory.processes++;
  }
  return memory;
}

/** CPU seconds (user + system) a process and the processes under it have used so far, from /proc/<pid>/stat. */
export async function cpuSecondsOf(pid: number): Promise<number> {
  let seconds = 0;
  for (const member of await processTree(pid)) {
    const stat = await readFile(`/proc/${member}/stat`, 'utf8').catch(() => '');
    if (stat === '') continue;
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const CLOCK_TICKS_PER_SECOND = 100;
    seconds += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  }
  return seconds;
}

/** The server running as a child process. */
export interface ServerProcess {
  pid: number;
  baseUrl: string;
  memory(): Promise<Memory>;
  cpuSeconds(): Promise<number>;
  /** Statements the server has sent to PostgreSQL so far (see pg-query-counter.mjs); undefined when not counted. */
  queryCount(): Promise<number | undefined>;
  /** How the process ended, if it has ended: e.g. `exit code 1` or `signal SIGKILL`. */
  ended(): string | undefined;
  /** SIGTERM (the server closes cleanly, which also writes a --cpu-prof profile), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export interface StartOptions {
  databaseUrl: string;
  port: number;
  logFile: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** Count the statements the server sends to PostgreSQL (loads bench/pg-query-counter.mjs into it). */
  countQueries?: boolean;
  /** Settings of its own (the rate limits). */
  env?: Record<string, string>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitUntilHealthy(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} while starting; see ${logFile}`);
    const healthy = await fetch(`${baseUrl}/health`).then((response) => response.ok, () => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not become healthy within 30 s; see ${logFile}`);
}

/**
 * The Node flags `npm start` gives the server (package.json `scripts.start`, `node <flags> dist/main.js`):
 * the bench starts the server exactly as a deployment does.
 */
function startScriptFlags(): string[] {
  const start = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts?: { start?: string } }).scripts?.start ?? '';
  const match = /^node((?:\s+--?\S+)*)\s+dist\/main\.js$/.exec(start.trim());
  if (!match) throw new Error(`package.json scripts.start is not "node [flags] dist/main.js": ${JSON.stringify(start)}`);
  return match[1].trim().split(/\s+/).filter(Boolean);
}

/** Starts `node <npm start's flags> dist/main.js` on 127.0.0.1 and waits for GET /health to answer. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const log = openSync(options.logFile, 'a');
  const counter = options.countQueries ? ['--import', './bench/pg-query-counter.mjs'] : [];
  const child = spawn(process.execPath, [...startScriptFlags(), ...(options.nodeArgs ?? []), ...counter, 'dist/main.js'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: options.databaseUrl, HOST: '127.0.0.1', PORT: String(options.port), LOG_LEVEL: 'warn', NODE_ENV: 'production', ...options.env },
    stdio: options.countQueries ? ['ignore', log, log, 'ipc'] : ['ignore', log, log],
  });
  if (options.countQueries) child.channel?.unref();
  let ended: string | undefined;
  child.once('exit', (code, signal) => {
    ended = signal ? `signal ${signal}` : `exit code ${code}`;
  });
  closeSync(log);
  // Whatever happens to the bench process, the server must not outlive it.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
  };
  try {
    await waitUntilHealthy(baseUrl, child, options.logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  const queryCount = options.countQueries ? () => askQueryCount(child) : () => Promise.resolve(undefined);
  return { pid: child.pid!, baseUrl, memory: () => memoryOf(child.pid!), cpuSeconds: () => cpuSecondsOf(child.pid!), queryCount, ended: () => ended, stop };
}

/** Asks the server (over the IPC channel) how many statements it has sent; see pg-query-counter.mjs. */
function askQueryCount(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error('the server did not answer the query count within 5 s'));
    }, 5_000);
    const onMessage = (message: unknown): void => {
      const answer = message as { type?: string; queries?: number };
      if (answer?.type !== 'bench:query-count' || typeof answer.queries !== 'number') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(answer.queries);
    };
    child.on('message', onMessage);
    child.send({ type: 'bench:query-count' });
  });
}
