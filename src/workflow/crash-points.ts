import type { CrashAt, CrashPoint } from '../config/index.js';

/**
 * Fault injection for the crash-recovery tests (test/crash/workflow-crash-trials.ts). The runner
 * calls its `CrashSwitch` at three points of a run's life:
 *
 * - `run-start`: a run's job is claimed; the record write that triggered it has committed, the run
 *   has not started.
 * - `between-steps`: a step has committed and the run goes on to its next node.
 * - `step-commit`: inside a step's transaction, its record writes and the run's move made, right
 *   before COMMIT.
 *
 * With CRASH_AT unset (always, outside those tests) the switch does nothing. Set, the process kills
 * itself with SIGKILL (as `kill -9` would: no cleanup, no flush, no rollback but the engine's own)
 * the nth time it reaches the configured point.
 */
export type CrashSwitch = (point: CrashPoint) => void;

const noCrash: CrashSwitch = () => undefined;

/** The switch for a configuration's CRASH_AT. */
export function crashSwitch(crashAt: CrashAt | null): CrashSwitch {
  if (!crashAt) return noCrash;
  let arrivals = 0;
  return (point) => {
    if (point !== crashAt.point || ++arrivals < crashAt.nth) return;
    process.kill(process.pid, 'SIGKILL');
    // The kernel ends the process at once; block meanwhile so that not one more statement is sent.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  };
}
