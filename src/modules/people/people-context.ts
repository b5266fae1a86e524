import type { Executor } from '../../db/connection.js';

/**
 * What the people services act in: the database (or a transaction), the organization whose people
 * they manage, and the time. The CLI names the organization (`--org`, or the first one); the admin
 * API takes the caller's.
 * @example await createUser({ db, organizationId, now: Date.now() }, { email, fullname })
 */
export interface PeopleContext {
  db: Executor;
  organizationId: string;
  now: number;
}

/** The same context inside a transaction. */
export function within(pc: PeopleContext, trx: Executor): PeopleContext {
  return { ...pc, db: trx };
}
