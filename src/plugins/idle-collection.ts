import fp from 'fastify-plugin';
import { IdleCollection } from '../processes/idle-collection.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The idle-time collection (`processes/idle-collection.ts`); null when off or when Node does not expose `gc`. */
    idleCollection: IdleCollection | null;
  }
}

/** How often the plugin looks whether the process has gone idle. */
const LOOK_EVERY_MS = 1_000;

export interface IdleCollectionOptions {
  /** Quiet time before the collection (IDLE_COLLECT_SECONDS in ms); 0: off. */
  idleMs: number;
  clock: () => number;
  /** The collection: Node's `gc` (exposed by `npm start`'s `--expose-gc`) unless given (tests). */
  collect?: () => void;
}

/**
 * Runs one full garbage collection once the server has answered no request for `idleMs` after
 * answering some (`processes/idle-collection.ts`): one hook on the answer, none on the request. Off when `gc` is not exposed (`node dist/main.js` without
 * `--expose-gc`) or `idleMs` is 0.
 */
export const idleCollectionPlugin = fp<IdleCollectionOptions>(async (app, options) => {
  const gc = options.collect ?? (globalThis as { gc?: () => void }).gc;
  if (options.idleMs <= 0 || typeof gc !== 'function') {
    app.decorate('idleCollection', null);
    return;
  }
  const idle = new IdleCollection(options.idleMs, () => {
    const before = process.memoryUsage();
    gc();
    const after = process.memoryUsage();
    const mb = (bytes: number) => Math.round(bytes / 1_048_576);
    app.log.debug(`idle: collected garbage, heap ${mb(before.heapTotal)} -> ${mb(after.heapTotal)} MB (in use ${mb(after.heapUsed)} MB), resident ${mb(after.rss)} MB`);
  });
  app.decorate('idleCollection', idle);
  app.addHook('onResponse', (_request, _reply, done) => {
    idle.answered(options.clock());
    done();
  });
  const timer = setInterval(() => idle.tick(options.clock()), LOOK_EVERY_MS);
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));
});
