import type { Executor } from '../../db/connection.js';
import type { Actor } from '../../shared/actor.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema } from '../worksheets/index.js';
import { deletedBefore } from './repository.js';
import { removeRecords } from './writer.js';
import { systemActor } from '../../access/index.js';
import type { RecurringJob } from '../../jobs/index.js';

const DAY = 86_400_000;
/** Records removed per write: short transactions, so that other writes go on between them. */
const BATCH = 1_000;

/** The job kind (and id) of the recycle-bin sweep. */
export const RECYCLE_BIN_JOB = 'sweep.recycle-bin';

/**
 * Empties the recycle bin of records deleted more than `RECYCLE_BIN_DAYS` ago: each goes for good
 * through the record writer, as a permanent delete does (its links, sub-table rows, files and log
 * with it), a thousand per transaction. Run hourly as a recurring job (`job`); two sweeps at once
 * (one by hand beside the job's) remove each record once (the second finds it gone).
 */
export class RecycleBinSweep {
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Executor,
    private readonly days: number,
    private readonly clock: () => number,
    /** The context the sweep acts in, for one application. */
    private readonly contextFor: (actor: Actor) => ServiceContext,
  ) {}

  /** The recurring job: hourly, the first a minute after it is first planned (not in the rush of a first start). */
  get job(): RecurringJob {
    return {
      kind: RECYCLE_BIN_JOB,
      everyMs: 3_600_000,
      firstAfterMs: 60_000,
      run: async (_now, extendLease) => {
        await this.sweep(extendLease);
      },
    };
  }

  /**
   * One sweep: returns how many records it removed. One at a time per process. `between` is called
   * after each batch (the job's lease is extended there).
   */
  sweep(between: () => Promise<void> = async () => undefined): Promise<number> {
    this.running ??= this.sweepAll(between).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepAll(between: () => Promise<void>): Promise<number> {
    const cutoff = this.clock() - this.days * DAY;
    const worksheets = await this.db
      .selectFrom('worksheets')
      .innerJoin('apps', 'apps.id', 'worksheets.app_id')
      .select(['worksheets.id as id', 'worksheets.app_id as appId', 'apps.organization_id as organizationId'])
      .execute();
    let removed = 0;
    for (const worksheet of worksheets) {
      const ctx = this.contextFor(systemActor({ job: 'recycle-bin', appId: worksheet.appId, organizationId: worksheet.organizationId, accountId: 'user-undefined', writes: true }));
      // A worksheet deleted since the list was read has nothing left to sweep; any other failure is reported.
      const schema = await loadSchema(ctx, worksheet.id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === ErrorCode.WorksheetNotFound) return null;
        throw error;
      });
      if (!schema) continue;
      for (;;) {
        const due = await deletedBefore(this.db, schema.table, cutoff, BATCH);
        if (due.length === 0) break;
        removed += (await removeRecords(ctx, schema, due, true)).length;
        await between();
        if (due.length < BATCH) break;
      }
    }
    return removed;
  }
}
