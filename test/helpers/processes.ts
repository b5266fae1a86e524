import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs the built program (`bin/tabularium.js`, `dist/main.js`) as child processes, the way an
 * operator does, so the tests cover argument parsing, exit codes and what is printed.
 */

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Settings the program reads; removed from the inherited environment so each test states its own. */
const PROGRAM_SETTINGS = [
  'PORT', 'HOST', 'DATABASE_URL', 'HEADER_PREFIX', 'PUBLIC_URL', 'LOG_LEVEL', 'BODY_LIMIT', 'TIME_ZONE', 'REDIS_URL', 'NODE_ENV', 'LOG_FORMAT',
  'RATE_LIMIT', 'RATE_LIMIT_PER_IP', 'RATE_LIMIT_WINDOW_SECONDS', 'DAILY_QUOTA', 'TRUST_PROXY', 'REDIS_KEY_PREFIX',
  'WORKERS', 'WORKER_POLL_MS', 'WORKER_LEASE_MS', 'CRASH_AT',
];

/** The test runner's environment without the program's settings, plus `overrides`. */
export function childEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of PROGRAM_SETTINGS) delete env[name];
  return { ...env, ...overrides };
}

function newestMtime(dir: string, suffix: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, suffix));
    else if (entry.name.endsWith(suffix)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function distIsCurrent(): boolean {
  const outputs = ['dist/main.js', 'dist/cli/index.js', 'dist/server.js'].map((p) => join(REPO_ROOT, p));
  if (!outputs.every((p) => existsSync(p))) return false;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  return built >= newestMtime(join(REPO_ROOT, 'src'), '.ts');
}

/**
 * Builds dist/ when it is missing or older than src/. Test files run in parallel, so a lock
 * directory makes the others wait for one build instead of writing dist/ at the same time.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(tmpdir(), 'tabularium-test-build.lock');
  const deadline = Date.now() + 120_000;
  while (!distIsCurrent()) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is building; a lock left by a crashed run expires after two minutes.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another test file to build dist/');
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'pipe' });
    } catch (error) {
      const output = (error as { stdout?: Buffer }).stdout?.toString() ?? '';
      throw new Error(`npm run build failed:\n${output}`, { cause: error });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/tabularium.js ...args` to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolveResult) => {
    execFile('node', ['bin/tabularium.js', ...args], { cwd: REPO_ROOT, env: childEnv(env), timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolveResult({ code, stdout, stderr });
    });
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT */
  url: string;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

const running = new Set<ChildProcess>();

/** Starts the server as a child (`command` is the script and its arguments) on a free port. */
export async function spawnServer(command: string[], env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn('node', command, { cwd: REPO_ROOT, env: childEnv({ HOST: '127.0.0.1', ...env, PORT: port }), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolveExit) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolveExit(code ?? signal ?? -1);
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until GET /health answers 200: the server has migrated, set up and is listening. */
export async function waitUntilServing(server: ServerProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void server.exited.then(() => (ended = true));
  while (Date.now() < deadline) {
    if (ended) throw new Error(`the server exited before serving:\n${server.output()}`);
    try {
      const response = await fetch(`${server.url}/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer /health within ${timeoutMs} ms:\n${server.output()}`);
}

/** Waits until the server has printed text matching `pattern`. */
export async function waitForOutput(server: ServerProcess, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(server.output());
    if (match) return match[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not print ${pattern} within ${timeoutMs} ms:\n${server.output()}`);
}

/** Kills every server child still running (for afterAll, so a failed test leaves nothing behind). */
export async function killAllServers(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolveKill) => {
          child.once('exit', () => resolveKill());
          child.kill('SIGKILL');
        }),
    ),
  );
}
