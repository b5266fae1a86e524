/** What one bench run does, read from the environment once. */
export interface BenchSettings {
  /** BENCH_QUICK=1: a scaled-down run for a quick look; the targets stay the same. */
  quick: boolean;
  /** Records W1 writes (in batches of `batchSize`); W4 lists this table. */
  records: number;
  batchSize: number;
  /** Seconds each timed workload (W2–W4) runs. */
  seconds: number;
  /** A postgres:// URL to run against (BENCH_DATABASE_URL, then DATABASE_URL); otherwise a temp SQLite file. */
  postgresUrl: string | undefined;
  /** BENCH_PROFILE=W3: run that workload on a server started with --cpu-prof (written to .bench/profiles). */
  profileWorkload: string | undefined;
  /** BENCH_KEEP_DATABASE=1: leave the database (SQLite file or PostgreSQL schema) for inspection. */
  keepDatabase: boolean;
}

/** The workloads that load the server (W6 only reads its memory). */
const PROFILABLE = ['W1', 'W2', 'W3', 'W4'];

const isPostgres = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

export function readSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  if (env.BENCH_DATABASE_URL && !isPostgres(env.BENCH_DATABASE_URL)) {
    throw new Error(`BENCH_DATABASE_URL must be a postgres:// URL, got "${env.BENCH_DATABASE_URL}"`);
  }
  const profileWorkload = env.BENCH_PROFILE?.trim().toUpperCase() || undefined;
  if (profileWorkload && !PROFILABLE.includes(profileWorkload)) throw new Error(`BENCH_PROFILE must be one of ${PROFILABLE.join(', ')}, got "${env.BENCH_PROFILE}"`);
  // A sqlite: DATABASE_URL from the developer's shell is ignored: the bench always starts from an empty database.
  const url = env.BENCH_DATABASE_URL || env.DATABASE_URL;
  return {
    quick,
    records: quick ? 10_000 : 100_000,
    batchSize: 1_000,
    seconds: quick ? 3 : 10,
    postgresUrl: url && isPostgres(url) ? url : undefined,
    profileWorkload,
    keepDatabase: env.BENCH_KEEP_DATABASE === '1' || env.BENCH_KEEP_DATABASE === 'true',
  };
}
