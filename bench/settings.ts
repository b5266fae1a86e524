/** What one bench run does, read from the environment once. */
export interface BenchSettings {
  /** BENCH_QUICK=1: a scaled-down run for a quick look; the targets stay the same. */
  quick: boolean;
  /** BENCH_MILLION=1: load 1,000,000 records and run only the one-connection W4 and W5 on them. */
  million: boolean;
  /** Records W1 writes (in batches of `batchSize`); the read workloads read this table. */
  records: number;
  batchSize: number;
  /** Seconds each timed workload (W2–W11, the ceiling) runs. */
  seconds: number;
  /** A postgres:// URL to run against (BENCH_DATABASE_URL, then DATABASE_URL); otherwise a temp SQLite file. */
  postgresUrl: string | undefined;
  /** BENCH_PROFILE=W3: run that workload on a server started with --cpu-prof (written to .bench/profiles). */
  profileWorkload: string | undefined;
  /** BENCH_KEEP_DATABASE=1: leave the database (SQLite file or PostgreSQL schema) for inspection. */
  keepDatabase: boolean;
  /**
   * BENCH_ONLY=W3,W3r or W9,W9b: run only these workloads (upper-cased ids), plus what they stand on:
   * W1 fills the table every read reads, W8 the worksheets W7 reads (W9 and W9b stand on nothing);
   * W6 is always measured. Undefined: all.
   */
  only: string[] | undefined;
  /**
   * HTTP_PROCESSES of the server (BENCH_HTTP_PROCESSES; default `auto`, one per core): the read
   * targets are for the machine, and a deployment that wants them serves from every core.
   */
  httpProcesses: string;
}

/** Workloads BENCH_ONLY may name. */
const SELECTABLE = ['W1', 'W2', 'W8', 'W12', 'W10', 'W9', 'W9B', 'W14', 'W3', 'W3T', 'W3R', 'W4S', 'W4', 'W4T', 'W4V', 'W4M', 'W5', 'W13', 'W11', 'W11N', 'W7', 'W7A', 'W15', 'W6'];

/** The workloads that load the server (W6 only reads its memory). */
const PROFILABLE = ['W1', 'W2', 'W12', 'W10', 'W13', 'W3', 'W3T', 'W3R', 'W4S', 'W4', 'W4T', 'W4V', 'W5', 'W11', 'W11N', 'W7', 'W7A', 'W8', 'W9', 'W14', 'W15'];

const isPostgres = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);
const isOn = (value: string | undefined): boolean => value === '1' || value === 'true';

export function readSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const quick = isOn(env.BENCH_QUICK);
  const million = isOn(env.BENCH_MILLION);
  if (quick && million) throw new Error('BENCH_QUICK and BENCH_MILLION exclude each other');
  if (env.BENCH_DATABASE_URL && !isPostgres(env.BENCH_DATABASE_URL)) {
    throw new Error(`BENCH_DATABASE_URL must be a postgres:// URL, got "${env.BENCH_DATABASE_URL}"`);
  }
  const profileWorkload = env.BENCH_PROFILE?.trim().toUpperCase() || undefined;
  if (profileWorkload && !PROFILABLE.includes(profileWorkload)) throw new Error(`BENCH_PROFILE must be one of ${PROFILABLE.join(', ')}, got "${env.BENCH_PROFILE}"`);
  const only = env.BENCH_ONLY?.trim() ? env.BENCH_ONLY.split(',').map((id) => id.trim().toUpperCase()).filter(Boolean) : undefined;
  const unknown = only?.filter((id) => !SELECTABLE.includes(id)) ?? [];
  if (unknown.length) throw new Error(`BENCH_ONLY names unknown workloads (${unknown.join(', ')}); known: ${SELECTABLE.join(', ')}`);
  if (only && million) throw new Error('BENCH_ONLY and BENCH_MILLION exclude each other');
  // A sqlite: DATABASE_URL from the developer's shell is ignored: the bench always starts from an empty database.
  const url = env.BENCH_DATABASE_URL || env.DATABASE_URL;
  return {
    quick,
    million,
    records: quick ? 10_000 : million ? 1_000_000 : 100_000,
    batchSize: 1_000,
    seconds: quick ? 3 : 10,
    postgresUrl: url && isPostgres(url) ? url : undefined,
    profileWorkload,
    keepDatabase: isOn(env.BENCH_KEEP_DATABASE),
    only,
    httpProcesses: env.BENCH_HTTP_PROCESSES?.trim() || 'auto',
  };
}

