import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type ClientRow = MetaSchema['oauth_clients'];
export type CodeRow = MetaSchema['oauth_codes'];
export type TokenRow = MetaSchema['oauth_tokens'];

export async function insertClient(db: Executor, row: ClientRow): Promise<void> {
  await db.insertInto('oauth_clients').values(row).execute();
}

export async function clientByClientId(db: Executor, clientId: string): Promise<ClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function clientsOf(db: Executor, organizationId: string | null): Promise<ClientRow[]> {
  let query = db.selectFrom('oauth_clients').selectAll().orderBy('created_at').orderBy('id');
  if (organizationId !== null) query = query.where('organization_id', '=', organizationId);
  return query.execute();
}

export async function setClientEnabled(db: Executor, organizationId: string | null, clientId: string, enabled: boolean): Promise<boolean> {
  let query = db.updateTable('oauth_clients').set({ enabled: enabled ? 1 : 0 }).where('client_id', '=', clientId);
  if (organizationId !== null) query = query.where('organization_id', '=', organizationId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertCode(db: Executor, row: CodeRow): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

export async function codeByHash(db: Executor, hash: string): Promise<CodeRow | undefined> {
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
}

/** Marks a code used; false when it already was (a replay, or a race lost to another exchange). */
export async function useCode(db: Executor, hash: string, now: number): Promise<boolean> {
  const result = await db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertToken(db: Executor, row: TokenRow): Promise<void> {
  await db.insertInto('oauth_tokens').values(row).execute();
}

export async function tokenByAccessHash(db: Executor, hash: string): Promise<TokenRow | undefined> {
  return db.selectFrom('oauth_tokens').selectAll().where('access_hash', '=', hash).executeTakeFirst();
}

/** A refresh token with its person's status (a disabled or deleted person's tokens are refused). */
export async function tokenByRefreshHash(db: Executor, hash: string): Promise<(TokenRow & { account_status: number | null }) | undefined> {
  return db
    .selectFrom('oauth_tokens as t')
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .selectAll('t')
    .select('a.status as account_status')
    .where('t.refresh_hash', '=', hash)
    .executeTakeFirst();
}

/** Marks a refresh token used; false when it already was (a reuse). */
export async function useRefreshToken(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('oauth_tokens').set({ refresh_used_at: now }).where('id', '=', id).where('refresh_used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeFamily(db: Executor, familyId: string, now: number): Promise<void> {
  await db.updateTable('oauth_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** The family whose access or refresh token this is, when it was issued to this client. */
export async function familyOfToken(db: Executor, hash: string, clientId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('oauth_tokens')
    .select('family_id')
    .where((eb) => eb.or([eb('access_hash', '=', hash), eb('refresh_hash', '=', hash)]))
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row?.family_id;
}

/** Whether a person is an active member of an organization (who may authorize its clients). */
export async function isActiveMember(db: Executor, organizationId: string, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('organization_members').select('status').where('organization_id', '=', organizationId).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined && Number(row.status) === 1;
}

/** An access token with what its check needs: its client's state and its person's. */
export async function accessTokenCheck(db: Executor, hash: string) {
  return db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_clients as c', 'c.client_id', 't.client_id')
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 't.account_id', 't.scopes', 't.access_expires_at', 't.revoked_at', 'c.enabled', 'c.allowed_ips', 'c.organization_id', 'a.status as account_status'])
    .where('t.access_hash', '=', hash)
    .executeTakeFirst();
}

/**
 * Removes every token family none of whose tokens can be used any more: each access token and each
 * refresh token (spent or not) of the family has expired by `now`. Answers how many rows went.
 */
export async function deleteExpiredFamilies(db: Executor, now: number): Promise<number> {
  const result = await db
    .deleteFrom('oauth_tokens')
    .where('family_id', 'in', (eb) =>
      eb
        .selectFrom('oauth_tokens as f')
        .select('f.family_id')
        .groupBy('f.family_id')
        .having((h) => h.and([h(h.fn.max('f.access_expires_at'), '<=', now), h(h.fn.max(h.fn.coalesce('f.refresh_expires_at', h.lit(0))), '<=', now)])),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Removes codes expired by `now` that were never used, or whose tokens are gone (a used code is the
 * family id of the tokens it gave: while they live, its replay must still revoke them). Answers how many.
 */
export async function deleteSpentCodes(db: Executor, now: number): Promise<number> {
  const result = await db
    .deleteFrom('oauth_codes')
    .where('expires_at', '<=', now)
    .where((eb) => eb.or([eb('used_at', 'is', null), eb.not(eb.exists(eb.selectFrom('oauth_tokens').select('oauth_tokens.id').whereRef('oauth_tokens.family_id', '=', 'oauth_codes.code_hash')))]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
