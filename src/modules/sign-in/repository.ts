import type { Executor } from '../../db/connection.js';

/** The SQL of the sign-in pages: sessions, failed sign-ins, and the few account fields they read or change. */

/** The person signing in: only what the password check needs. */
export async function accountForSignIn(db: Executor, email: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'password_hash', 'status'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

export async function accountById(db: Executor, id: string) {
  return db.selectFrom('accounts').select(['id', 'email', 'fullname', 'organization_id', 'password_hash', 'status']).where('id', '=', id).executeTakeFirst();
}

export async function setPasswordHash(db: Executor, accountId: string, passwordHash: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
}

/** The applications of a person's organization, for the token form's list. */
export async function appsOfOrganization(db: Executor, organizationId: string) {
  return db.selectFrom('apps').select(['id', 'name']).where('organization_id', '=', organizationId).orderBy('name').orderBy('id').execute();
}

/** A session with the state of its person. */
export async function findSession(db: Executor, idHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select(['sessions.account_id', 'sessions.data', 'sessions.created_at', 'sessions.seen_at', 'accounts.status as account_status', 'accounts.organization_id'])
    .where('sessions.id', '=', idHash)
    .executeTakeFirst();
}

/** Writes a session; a new one starts now, a known one keeps its start. */
export async function saveSession(db: Executor, row: { id: string; account_id: string; data: string; created_at: number; seen_at: number }): Promise<void> {
  await db
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ account_id: row.account_id, data: row.data, seen_at: row.seen_at }))
    .execute();
}

export async function touchSession(db: Executor, idHash: string, at: number): Promise<void> {
  await db.updateTable('sessions').set({ seen_at: at }).where('id', '=', idHash).execute();
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', idHash).execute();
}

/** Ends every session of a person but `keepIdHash` (null: all of them). */
export async function deleteSessionsOf(db: Executor, accountId: string, keepIdHash: string | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('account_id', '=', accountId);
  if (keepIdHash !== null) query = query.where('id', '<>', keepIdHash);
  await query.execute();
}

/** Removes sessions past their idle or absolute lifetime (seen, or begun, at or before the bound); answers how many. */
export async function deleteStaleSessions(db: Executor, seenBy: number, createdBy: number): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('seen_at', '<=', seenBy), eb('created_at', '<=', createdBy)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The times of the recent failures of a key, newest first, at most `limit`. */
export async function recentFailures(db: Executor, key: string, since: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('sign_in_failures').select('at').where('key', '=', key).where('at', '>', since).orderBy('at', 'desc').limit(limit).execute();
  return rows.map((row) => Number(row.at));
}

export async function addFailures(db: Executor, keys: string[], at: number): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values(keys.map((key) => ({ key, at })))
    .execute();
}

export async function clearFailures(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
}

/** Removes failures at or before `by` (out of the window); answers how many. */
export async function deleteFailuresBefore(db: Executor, by: number): Promise<number> {
  const result = await db.deleteFrom('sign_in_failures').where('at', '<=', by).executeTakeFirst();
  return Number(result.numDeletedRows);
}
