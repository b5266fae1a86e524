import type { Executor } from '../../db/connection.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newGuid } from '../../shared/ids.js';
import { createApp, firstAppOf } from '../apps/index.js';
import { firstKeyOf, issueKey, type IssuedKey } from '../app-keys/index.js';
import { generatePassword, hashPassword } from '../people/index.js';

export interface FreshSetup {
  organizationId: string;
  owner: { accountId: string; email: string; password: string };
  app: { appId: string } & IssuedKey;
}

export interface ExistingSetup {
  organizationId: string;
  owner: { accountId: string; email: string };
  app: { appId: string; appKey: string } | null;
}

export const OWNER_EMAIL = 'owner@tabularium.local';

/** The ids of a database that is set up already, or null when it is empty. */
async function existingSetup(db: Executor): Promise<ExistingSetup | null> {
  const organization = await db.selectFrom('organizations').select('id').orderBy('created_at').orderBy('id').executeTakeFirst();
  if (!organization) return null;
  const owner = await db
    .selectFrom('accounts')
    .select(['id', 'email'])
    .where('organization_id', '=', organization.id)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const appId = await firstAppOf(db, organization.id);
  const appKey = appId ? await firstKeyOf(db, appId) : undefined;
  return {
    organizationId: organization.id,
    owner: { accountId: owner.id, email: owner.email },
    app: appId ? { appId, appKey: appKey ?? '' } : null,
  };
}

/**
 * First run: on an empty database creates the organization, the owner account and a first
 * application with a key, and returns them with their secrets (shown this once). On a database
 * that is set up already it creates nothing and returns the ids without secrets.
 * The password is hashed (scrypt, deliberately slow) only when the database is empty, and before
 * the transaction, so that no lock is held while it runs; the transaction checks again, so two
 * processes starting together set up once.
 */
export async function ensureSetup(db: Executor, now: number): Promise<{ created: true; setup: FreshSetup } | { created: false; setup: ExistingSetup }> {
  const before = await existingSetup(db);
  if (before) return { created: false, setup: before };
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (trx) => {
    const meanwhile = await existingSetup(trx);
    if (meanwhile) return { created: false as const, setup: meanwhile };
    const organizationId = newGuid();
    const accountId = newGuid();
    await trx.insertInto('organizations').values({ id: organizationId, name: 'My organization', created_at: now }).execute();
    await trx
      .insertInto('accounts')
      .values({ id: accountId, organization_id: organizationId, email: OWNER_EMAIL, fullname: 'Owner', password_hash: passwordHash, status: 1, created_at: now })
      .execute();
    // The owner administers the organization (the admin API, `/admin/…`).
    await trx.insertInto('organization_members').values({ organization_id: organizationId, account_id: accountId, is_admin: 1, status: 1, joined_at: now }).execute();
    const appId = await createApp(trx, organizationId, accountId, { name: 'My first app' }, now);
    const key = await issueKey(trx, appId, false, now);
    return {
      created: true as const,
      setup: { organizationId, owner: { accountId, email: OWNER_EMAIL, password }, app: { appId, ...key } },
    };
  });
}

/** The organization everything belongs to (this version has one per installation). */
async function theOrganization(db: Executor): Promise<{ organizationId: string; ownerId: string }> {
  const organization = await db.selectFrom('organizations').select('id').orderBy('created_at').orderBy('id').executeTakeFirst();
  if (!organization) throw AppError.notFound('the database is not set up: run `tabularium setup` first');
  const owner = await db.selectFrom('accounts').select('id').where('organization_id', '=', organization.id).orderBy('created_at').orderBy('id').executeTakeFirstOrThrow();
  return { organizationId: organization.id, ownerId: owner.id };
}

/** A new application with its first key (CLI `apps create`). */
export async function createAppWithKey(db: Executor, name: string, now: number): Promise<{ appId: string } & IssuedKey> {
  return inTransaction(db, async (trx) => {
    const { organizationId, ownerId } = await theOrganization(trx);
    const appId = await createApp(trx, organizationId, ownerId, { name }, now);
    return { appId, ...(await issueKey(trx, appId, false, now)) };
  });
}

/** Another key for an existing application (CLI `keys create`), usable from any address or only from `allowedIps`. */
export async function addKey(db: Executor, appId: string, readOnly: boolean, now: number, allowedIps: readonly string[] | null = null): Promise<{ appId: string } & IssuedKey> {
  const app = await db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst();
  if (!app) throw AppError.notFound(`no application "${appId}"`);
  return { appId, ...(await issueKey(db, appId, readOnly, now, allowedIps)) };
}
