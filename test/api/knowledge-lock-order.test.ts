import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connection.js';
import { lockBase } from '../../src/knowledge/base-status.js';
import { createAppWithKey } from '../../src/modules/setup/index.js';
import { describeApi } from '../helpers/api-harness.js';

/**
 * Lock order on PostgreSQL (docs/knowledge.md, "The in-memory vector index"): every passage writer
 * takes its base's row lock, then the vector change log's advisory lock. An application's deletion
 * removes all its bases' passages, so it must take every base's lock before the log's: otherwise it
 * could hold the log's lock while waiting for a base a writer holds, the writer waiting for the log
 * (a deadlock PostgreSQL breaks after a second by aborting one of them).
 */

const LOG_LOCK = 727002;

describeApi(
  'knowledge: an application deleted while a passage writer holds one of its bases',
  (ctx) => {
    it('waits for the writer without holding the change log’s lock; both then commit', async () => {
      const other = await createAppWithKey(ctx.database.db, 'Busy app', Date.now());
      const headers = { 'SVC-Appkey': other.appKey, 'SVC-Sign': other.sign };
      const bases: string[] = [];
      for (const name of ['First', 'Second']) {
        const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name }, headers);
        expect(made.body.error_msg).toBe('');
        bases.push(made.body.data.id);
        const added = await ctx.call('POST', `/v3/app/knowledge/${made.body.data.id}/documents`, { text: `# ${name}\n\nA passage of the ${name} base.`, title: name }, headers);
        expect(added.body.error_msg).toBe('');
      }
      await ctx.app.jobs.runUntilIdle();
      const logged = await ctx.database.db.selectFrom('knowledge_vector_changes').select('seq').where('knowledge_id', 'in', bases).execute();
      expect(logged.length).toBeGreaterThanOrEqual(2);

      // A writer of the second base, in its own connection: its base's lock taken, the log's not yet.
      const writer = openDatabase(ctx.config.databaseUrl);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: (pid: number) => void;
      const held = new Promise<number>((resolve) => (holding = resolve));
      const writing = writer.db.transaction().execute(async (trx) => {
        const { pid } = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0]!;
        expect(await lockBase(trx, other.appId, bases[1]!)).toBe(true);
        holding(pid);
        await released;
        await sql`SELECT pg_advisory_xact_lock(${LOG_LOCK})`.execute(trx);
      });
      const writerPid = await held;

      const deleting = ctx.call('DELETE', '/v3/app', undefined, headers);
      // The deletion reaches the writer's base and waits for it (polled in the catalogue, no timer).
      const waitingOnWriter = sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE ${writerPid} = ANY(pg_blocking_pids(pid))`;
      let waiters: Array<{ pid: number }> = [];
      while (waiters.length === 0) waiters = (await waitingOnWriter.execute(ctx.database.db)).rows;
      const logLockOfWaiters = await sql<{ n: number | string }>`
        SELECT COUNT(*) AS n FROM pg_locks
        WHERE locktype = 'advisory' AND objid = ${LOG_LOCK} AND granted AND pid IN (${sql.join(waiters.map((w) => w.pid))})`.execute(ctx.database.db);
      expect(Number(logLockOfWaiters.rows[0]!.n)).toBe(0);

      release();
      await expect(writing).resolves.toBeUndefined();
      await writer.close();
      expect((await deleting).body.error_msg).toBe('');
      expect(await ctx.database.db.selectFrom('knowledge_bases').select('id').where('id', 'in', bases).execute()).toEqual([]);
    });
  },
  { WORKERS: '0' },
  { only: { engine: 'postgres', why: 'SQLite has one writer at a time, so its writers never wait for each other’s locks' } },
);
