import type { Executor } from '../../db/connection.js';
import type { Actor } from '../../shared/actor.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema } from '../worksheets/index.js';
import { deletedBefore } from './repository.js';
import { removeRecords } from './writer.js';
import { systemActor } from '../../access/index.js';

const DAY = 86_400_000;
/** Records removed per write: short transactions, so that other writes go on between them. */
const BATCH = 1_000;
/** How often the bin is swept, and how long after start the first sweep waits. */
const EVERY = 3_600_000;
const FIRST_AFTER = 60_000;

/**
 * Empties the recycle bin of records deleted more than `RECYCLE_BIN_DAYS` ago: each goes for good
 * through the record writer, as a permanent delete does (its links, sub-table rows, files and log
 * with it), a thousand per transaction. Runs hourly in every process; two processes sweeping at
 * once remove each record once (the second finds it gone).
 */
export class RecycleBinSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Executor,
    private readonly days: number,
    private readonly clock: () => number,
    /** The context the sweep acts in, for one application. */
    private readonly contextFor: (actor: Actor) => ServiceContext,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    const run = () => {
      this.sweep().catch(this.onError);
    };
    const first = setTimeout(() => {
      run();
      this.timer = setInterval(run, EVERY).unref();
    }, FIRST_AFTER).unref();
    this.timer = first;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One sweep: returns how many records it removed. One at a time per process. */
  sweep(): Promise<number> {
    this.running ??= this.sweepAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepAll(): Promise<number> {
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
        if (due.length < BATCH) break;
      }
    }
    return removed;
  }
}
