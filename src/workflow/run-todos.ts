import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';

/**
 * The to-dos of a whole run, as the engine reaches them (implemented by
 * `modules/workflow-instances`, handed in by `engine.ts` as the step's `TodoPort` is): a run that
 * ends anywhere but in a step that settled its to-dos (the timeout sweep, a job giving up, a person
 * terminating or revoking it, a step failing) closes the pending ones in the transaction that ends it.
 */
export interface RunTodosPort {
  /**
   * Closes the run's pending approvals, fill-ins and resubmits as no longer needed (status 5,
   * action `none`); copies (cc) stay as they are. Returns how many it closed.
   */
  closePending(trx: Executor, runId: string, now: number): Promise<number>;
}

/** What ending a run from outside its steps needs (`endRun`): the engine's dialect and the run's to-dos. */
export interface RunEnding {
  dialect: SqlDialect;
  runTodos: RunTodosPort;
}
