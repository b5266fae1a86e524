import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type TokenRow = Selectable<MetaSchema['access_tokens']>;

export async function insertToken(db: Executor, row: Insertable<MetaSchema['access_tokens']>): Promise<void> {
  await db.insertInto('access_tokens').values(row).execute();
}

/** A token by the hash of its secret, with the state of its person. */
export async function findTokenByHash(db: Executor, hash: string) {
  return db
    .selectFrom('access_tokens')
    .innerJoin('accounts', 'accounts.id', 'access_tokens.account_id')
    .selectAll('access_tokens')
    .select(['accounts.status as account_status', 'accounts.organization_id as home_organization_id'])
    .where('access_tokens.token_hash', '=', hash)
    .executeTakeFirst();
}

export async function tokensOf(db: Executor, accountId: string): Promise<TokenRow[]> {
  return db.selectFrom('access_tokens').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export async function findToken(db: Executor, accountId: string, id: string): Promise<TokenRow | undefined> {
  return db.selectFrom('access_tokens').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** Marks a token revoked (once: a second revocation keeps the first time). */
export async function revokeToken(db: Executor, id: string, at: number): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function noteTokenUse(db: Executor, id: string, at: number): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

export async function accountByEmail(db: Executor, email: string) {
  return db.selectFrom('accounts').select(['id', 'email', 'fullname', 'status', 'organization_id']).where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase())).executeTakeFirst();
}

/** Removes tokens that expired, or were revoked, at or before `by`; answers how many. */
export async function deleteTokensEndedBy(db: Executor, by: number): Promise<number> {
  const result = await db
    .deleteFrom('access_tokens')
    .where((eb) => eb.or([eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', by)]), eb.and([eb('revoked_at', 'is not', null), eb('revoked_at', '<=', by)])]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
