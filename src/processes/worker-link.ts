import { wakeWorkers } from '../jobs/index.js';
import { linkProcesses, receiveChange, type ProcessNotice } from '../shared/change-notices.js';
import { wakeRunWaiters } from '../workflow/index.js';
import { isProcessMessage, type ProcessMessage } from './messages.js';

/**
 * How long a process waits for the others to confirm a change notice before it answers anyway (a
 * process that hangs must not hold every write that changes structure). The caches' own time limits
 * (5 s) still bound what a late process can miss.
 */
const DELIVERY_WAIT_MS = 2_000;

/**
 * Links this server process (a cluster worker) to its supervisor: change notices and job and run
 * nudges go out through it, and those of the other processes come in. Returns the unlink.
 * @example const unlink = linkToSupervisor(); … unlink();
 */
export function linkToSupervisor(): () => void {
  const waiting = new Map<number, () => void>();
  let nextId = 1;
  // process.send's result is not used: false also means "queued behind a backlog", still delivered.
  const send = (message: ProcessMessage): void => {
    if (process.connected) process.send!(message);
  };

  const onMessage = (message: unknown): void => {
    if (!isProcessMessage(message)) return;
    if (message.tabularium === 'delivered') {
      waiting.get(message.id)?.();
      return;
    }
    if (message.tabularium !== 'notice') return;
    apply(message.notice);
    if (message.id !== undefined && message.origin !== undefined) send({ tabularium: 'ack', id: message.id, origin: message.origin });
  };
  process.on('message', onMessage);
  send({ tabularium: 'linked' });

  linkProcesses((notice) => {
    if (notice.kind !== 'changed') {
      send({ tabularium: 'notice', notice });
      return Promise.resolve();
    }
    const id = nextId++;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, DELIVERY_WAIT_MS);
      waiting.set(id, done);
      send({ tabularium: 'notice', notice, id });
      if (!process.connected) done();
    });
  });

  return () => {
    process.off('message', onMessage);
    linkProcesses(undefined);
    for (const done of [...waiting.values()]) done();
  };
}

/** What a notice from another process does here. */
function apply(notice: ProcessNotice): void {
  if (notice.kind === 'changed') receiveChange();
  else if (notice.kind === 'jobs') wakeWorkers();
  else wakeRunWaiters(notice.runId);
}
