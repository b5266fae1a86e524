/** The smallest SQLite page cache a server process's connection is given when the budget is divided. */
const MIN_SQLITE_CACHE_MB = 16;

/**
 * The page cache of each SQLite connection of one of `processes` server processes: the budget
 * (`SQLITE_CACHE_MB`, 64) divided among them, at least 16 MB (a budget set lower stands as set).
 *
 * Why: every process has its own two connections (writer and reader), and each connection's cache
 * fills up to its size with the pages a scan (a pivot, a search) read and keeps them: two processes
 * at 64 MB held 256 MB of caches between them after the benchmark's reads. The pages a process does
 * not keep are read again from the operating system's file cache, which the processes share; and
 * any commit (of this process or another) empties a connection's cache anyway when it next reads,
 * so a large cache pays only while nothing is written. Divided like the young generation
 * (`young-generation.ts`): the same memory for the whole server whatever the process count.
 * @example sqliteCacheShareMb(64, 2) // 32
 */
export function sqliteCacheShareMb(budgetMb: number, processes: number): number {
  return processShare(budgetMb, processes, MIN_SQLITE_CACHE_MB);
}

/**
 * One process's share of an amount divided among `processes`: at least `atLeast`, unless the
 * amount itself is smaller (then it stands as given: a division never adds).
 * @example processShare(64, 8, 16) // 16
 */
export function processShare(amount: number, processes: number, atLeast: number): number {
  return Math.max(Math.min(atLeast, amount), Math.floor(amount / Math.max(1, processes)));
}
