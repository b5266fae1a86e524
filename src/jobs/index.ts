/** The durable job queue the workflow engine and other background work run on. */
export { enqueueJobs, claimJobs, pendingJobCounts, LeaseLost, type ClaimedJob, type NewJob } from './job-queue.js';
export { JobWorker, PermanentJobFailure, retryDelay, type JobHandler, type JobWorkerOptions, type Lease } from './job-worker.js';
export { announceJobs, onJobsAnnounced, wakeWorkers } from './job-signal.js';
export { planRecurringJobs, recurringJobHandler, type RecurringJob } from './recurring-jobs.js';
