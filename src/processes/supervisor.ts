import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import type { Config } from '../config/index.js';
import { loggerOptions } from '../config/logger-options.js';
import { isProcessMessage, type ProcessMessage } from './messages.js';
import { processFlags } from './young-generation.js';

/** How long after a process that served ends it is started again. */
const RESTART_DELAY_MS = 1_000;
/** How long the processes get to stop after SIGTERM (each gives its requests 5 s) before they are killed. */
const STOP_WAIT_MS = 10_000;

interface Slot {
  number: number;
  worker?: Worker;
  /** Whether this slot's current process takes notices (it says so before it caches anything). */
  linked: boolean;
  /** Whether this slot's current process has started listening. */
  listening: boolean;
}

/** A change notice on its way: the processes that have not confirmed it yet. */
interface Delivery {
  origin: Worker;
  id: number;
  left: Set<number>;
}

/**
 * `tabularium serve` with HTTP_PROCESSES > 1: starts that many server processes on the one port
 * (Node's cluster module hands each connection to one of them, in turn), each with its job workers
 * (WORKERS). The first starts alone: it migrates and sets up the database (printing the first
 * secrets once); the others start once it serves, on a ready database. A process
 * that ends after it served is started again; one that ends before stops them all (the port, the
 * database or the settings would fail the next one too); SIGTERM or SIGINT stops them all. The
 * supervisor passes each process's notices to the others (`worker-link.ts`), serves no request and
 * loads none of the server's code. Each process gets the supervisor's Node flags, with the young
 * generation divided among them (`young-generation.ts`).
 * @example await superviseServers(loadConfig()) // with HTTP_PROCESSES=2
 */
export function superviseServers(config: Config): void {
  const options = loggerOptions(config);
  const log = pino(options === false ? { enabled: false } : options);
  const slots: Slot[] = Array.from({ length: config.httpProcesses }, (_, i) => ({ number: i + 1, linked: false, listening: false }));
  const deliveries = new Map<string, Delivery>();
  let stopping = false;
  let othersStarted = false;
  let announced = false;

  // A process not linked yet has cached nothing: it is neither told nor waited for.
  const linked = (): Worker[] => slots.flatMap((slot) => (slot.linked && slot.worker?.isConnected() ? [slot.worker] : []));
  const send = (worker: Worker, message: ProcessMessage): void => {
    if (worker.isConnected()) worker.send(message);
  };

  function delivered(key: string, delivery: Delivery): void {
    deliveries.delete(key);
    send(delivery.origin, { tabularium: 'delivered', id: delivery.id });
  }

  function route(slot: Slot, from: Worker, message: unknown): void {
    if (!isProcessMessage(message)) return;
    if (message.tabularium === 'linked') {
      if (slot.worker === from) slot.linked = true;
    } else if (message.tabularium === 'notice') {
      const others = linked().filter((worker) => worker !== from);
      const waited = message.id !== undefined;
      for (const worker of others) send(worker, { tabularium: 'notice', notice: message.notice, ...(waited ? { id: message.id, origin: from.id } : {}) });
      if (message.id === undefined) return;
      const delivery = { origin: from, id: message.id, left: new Set(others.map((worker) => worker.id)) };
      const key = `${from.id}/${message.id}`;
      if (delivery.left.size === 0) delivered(key, delivery);
      else deliveries.set(key, delivery);
    } else if (message.tabularium === 'ack') {
      const key = `${message.origin}/${message.id}`;
      const delivery = deliveries.get(key);
      if (!delivery) return;
      delivery.left.delete(from.id);
      if (delivery.left.size === 0) delivered(key, delivery);
    }
  }

  /** A process that ended confirms nothing more: what waited on it goes on. */
  function forgetDeliveriesOf(ended: Worker): void {
    for (const [key, delivery] of deliveries) {
      if (delivery.origin === ended) deliveries.delete(key);
      else if (delivery.left.delete(ended.id) && delivery.left.size === 0) delivered(key, delivery);
    }
  }

  function start(slot: Slot): void {
    const worker = cluster.fork();
    slot.worker = worker;
    slot.linked = false;
    slot.listening = false;
    worker.on('message', (message) => route(slot, worker, message));
    worker.once('listening', (address) => {
      slot.listening = true;
      log.debug(`process ${slot.number} (pid ${worker.process.pid}) is listening`);
      // Once: process 1 restarted after a crash must not start the others a second time.
      if (!othersStarted) {
        othersStarted = true;
        for (const other of slots.slice(1)) start(other);
      }
      if (!announced && slots.every((s) => s.listening)) {
        announced = true;
        log.info(`${slots.length} processes serve http://${address.address ?? config.host}:${address.port}, pids ${slots.map((s) => s.worker?.process.pid).join(', ')}`);
      }
    });
    worker.once('exit', (code, signal) => ended(slot, worker, code, signal));
  }

  function ended(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    forgetDeliveriesOf(worker);
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (!slot.listening) {
      // It never served: the port, the database or the settings will fail the next one too.
      log.error(`process ${slot.number} ended before it served (${how}): stopping the others`);
      void stop(1);
      return;
    }
    log.error(`process ${slot.number} (pid ${worker.process.pid}) ended (${how}); starting it again in ${RESTART_DELAY_MS} ms`);
    // Not unref'd: when every process has ended, this timer is what keeps the supervisor alive.
    setTimeout(() => {
      if (!stopping) start(slot);
    }, RESTART_DELAY_MS);
  }

  async function stop(exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    const running = slots.flatMap((slot) => (slot.worker && slot.worker.process.exitCode === null && slot.worker.process.signalCode === null ? [slot.worker] : []));
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const kill = setTimeout(() => worker.process.kill('SIGKILL'), STOP_WAIT_MS);
            worker.process.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            if (worker.process.exitCode !== null || worker.process.signalCode !== null) resolve();
            else worker.process.kill('SIGTERM');
          }),
      ),
    );
    process.exit(exitCode);
  }

  const onSignal = (signal: string): void => {
    log.info(`${signal}: stopping ${slots.length} processes`);
    void stop(0);
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  cluster.setupPrimary({ execArgv: processFlags(process.execArgv, slots.length) });
  start(slots[0]);
}
