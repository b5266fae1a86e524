import type { ProcessNotice } from '../shared/change-notices.js';

/**
 * The messages between the server processes and their supervisor, over Node's cluster IPC channel.
 * A process says `linked` when it listens for notices (before it has cached anything). It sends
 * `notice`; the supervisor passes it to every other linked process. For a notice with an
 * `id` (one the sender waits for), each of them answers `ack` and the supervisor tells the sender
 * `delivered` once all have.
 */
export type ProcessMessage =
  | { tabularium: 'linked' }
  | { tabularium: 'notice'; notice: ProcessNotice; id?: number; origin?: number }
  | { tabularium: 'ack'; id: number; origin: number }
  | { tabularium: 'delivered'; id: number };

/** Whether an IPC message is one of ours (the channel also carries Node's own). */
export function isProcessMessage(message: unknown): message is ProcessMessage {
  return typeof message === 'object' && message !== null && typeof (message as { tabularium?: unknown }).tabularium === 'string';
}
