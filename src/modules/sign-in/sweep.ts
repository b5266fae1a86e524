import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './session-store.js';
import { SIGN_IN_WINDOW_MS } from './sign-in-attempts.js';

/**
 * Removes what the sign-in pages keep past its use: sessions idle for SESSION_IDLE_MS or begun
 * SESSION_ABSOLUTE_MS ago (refused when presented anyway), and failed sign-ins that have left the
 * SIGN_IN_WINDOW_MS window the limits count over. Run by the maintenance sweep (`jobs/`); the store
 * and the attempt counter also remove some as they go.
 * @example const { sessions, signInFailures } = await sweepExpired(db, Date.now())
 */
export async function sweepExpired(db: Executor, now: number): Promise<{ sessions: number; signInFailures: number }> {
  return {
    sessions: await repository.deleteStaleSessions(db, now - SESSION_IDLE_MS, now - SESSION_ABSOLUTE_MS),
    signInFailures: await repository.deleteFailuresBefore(db, now - SIGN_IN_WINDOW_MS),
  };
}
