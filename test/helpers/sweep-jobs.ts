import { MAINTENANCE_SWEEP_JOB } from '../../src/jobs/maintenance-sweep.js';
import { RECYCLE_BIN_JOB } from '../../src/modules/records/index.js';
import { TIMEOUT_SWEEP_JOB } from '../../src/workflow/index.js';

/**
 * The kinds (and ids) of the recurring sweep jobs every app plans as it starts: always in the queue,
 * so that checks of "no job left" leave them out.
 */
export const SWEEP_JOBS = [MAINTENANCE_SWEEP_JOB, RECYCLE_BIN_JOB, TIMEOUT_SWEEP_JOB];
