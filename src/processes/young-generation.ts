import { processShare } from './memory-shares.js';

/** The smallest semi-space a server process is given: V8's own default. */
const MIN_SEMI_SPACE_MB = 16;

const FLAG = '--max-semi-space-size';

/**
 * The Node flags of each of `processes` server processes: the supervisor's own, with the young
 * generation (`--max-semi-space-size`, 64 MB in `npm start`) divided among them, at least 16 MB
 * (`processShare`; a flag set lower stands as set).
 *
 * Why: the young generation holds what the requests in flight allocate between two scavenges (a
 * list page about a megabyte); one process with every connection needs 64 MB semi-spaces to keep
 * that garbage from being promoted (docs/benchmark.md). With two processes each has half the
 * requests in flight: at 32 MB they serve as fast as at 64 (at 16, 8 % slower) and hold about
 * 120 MB less each after a load (docs/benchmark.md, W6). A flag the operator set is divided, never
 * added: without one, V8's defaults stand.
 * @example processFlags(['--max-semi-space-size=64'], 2) // ['--max-semi-space-size=32']
 */
export function processFlags(execArgv: readonly string[], processes: number): string[] {
  const flags: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    const joined = arg.startsWith(`${FLAG}=`);
    if (!joined && arg !== FLAG) {
      flags.push(arg);
      continue;
    }
    const size = Number(joined ? arg.slice(FLAG.length + 1) : execArgv[++i]);
    flags.push(Number.isFinite(size) && size > 0 ? `${FLAG}=${processShare(size, processes, MIN_SEMI_SPACE_MB)}` : joined ? arg : `${FLAG}=${execArgv[i]}`);
  }
  return flags;
}
