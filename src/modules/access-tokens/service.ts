import { scopeNamed, SCOPES, type ScopeName } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newObjectId } from '../../shared/ids.js';
import * as repository from './repository.js';
import { newTokenSecret, tokenHash, tokenHint } from './token-secret.js';

/**
 * Personal access tokens: made by a person (the settings page, or an administrator with the CLI)
 * for their scripts, shown once, then known only by a hash. A token acts as its person, narrowed to
 * its scopes, and to listed applications or organizations when it names them.
 */

const DAY = 86_400_000;
/** Longest name, in characters. */
const MAX_NAME = 100;
/** Most tokens one person keeps (revoked and expired ones included; revoke to make room). */
export const MAX_TOKENS_PER_PERSON = 100;

export interface TokenInput {
  name?: string;
  /** Public scope names or their numeric codes, or `all`. */
  scopes: Array<string | number> | 'all';
  /** `never`, a number of days (`30`, `"30d"`), or a date or time (`2027-01-31`, ISO 8601). */
  expires?: string | number;
  /** Only these applications (default: every application of the person). */
  appIds?: string[];
  /** Only these organizations (default: every organization of the person). */
  organizationIds?: string[];
}

export interface TokenView {
  id: string;
  name: string;
  hint: string;
  scopes: string[];
  appIds: string[] | null;
  organizationIds: string[] | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function presentToken(row: repository.TokenRow, now: number): TokenView {
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  return {
    id: row.id,
    name: row.name,
    hint: row.token_hint,
    scopes: JSON.parse(row.scopes) as string[],
    appIds: row.app_ids === null ? null : (JSON.parse(row.app_ids) as string[]),
    organizationIds: row.organization_ids === null ? null : (JSON.parse(row.organization_ids) as string[]),
    expiresAt: iso(expiresAt),
    createdAt: iso(Number(row.created_at))!,
    lastUsedAt: iso(row.last_used_at === null ? null : Number(row.last_used_at)),
    status: row.revoked_at !== null ? 'revoked' : expiresAt !== null && expiresAt <= now ? 'expired' : 'active',
  };
}

/** The scopes asked for, by name: an unknown one is refused with 600311 naming it. */
export function checkScopes(scopes: TokenInput['scopes']): ScopeName[] {
  if (scopes === 'all') return Object.keys(SCOPES) as ScopeName[];
  if (!Array.isArray(scopes) || scopes.length === 0) throw new AppError(ErrorCode.OAuthInvalidScope, 400, 'scopes: at least one scope is required (e.g. record:list), or "all"');
  const names = new Set<ScopeName>();
  scopes.forEach((value, i) => {
    const name = scopeNamed(value);
    if (!name) throw new AppError(ErrorCode.OAuthInvalidScope, 400, `scopes[${i}]: "${String(value).slice(0, 60)}" is not a scope (public names such as record:list, or their codes such as 30500)`);
    names.add(name);
  });
  return [...names];
}

/** When a token expires (epoch ms, or null for never), from `never`, days, or a date. */
export function expiryOf(expires: TokenInput['expires'], now: number): number | null {
  if (expires === undefined || expires === 'never' || expires === 0 || expires === '0') return null;
  const days = typeof expires === 'number' ? expires : /^\d+d?$/.test(expires.trim()) ? Number.parseInt(expires, 10) : NaN;
  if (Number.isInteger(days)) {
    if (days < 1 || days > 3650) throw AppError.invalidValue(`expires: ${days} days is out of range (1 to 3650, or "never")`);
    return now + days * DAY;
  }
  const at = Date.parse(String(expires));
  if (Number.isNaN(at)) throw AppError.invalidValue(`expires: "${String(expires).slice(0, 40)}" is not "never", a number of days or a date`);
  if (at <= now) throw AppError.invalidValue('expires: the date is in the past');
  return at;
}

function idList(values: string[] | undefined, key: string): string | null {
  if (values === undefined) return null;
  const ids = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
  if (ids.length === 0) throw AppError.invalidValue(`${key}: name at least one, or leave it out for all`);
  return JSON.stringify(ids);
}

/** Makes a token for a person; the secret is in the answer only. */
export async function createToken(db: Executor, accountId: string, input: TokenInput, now: number): Promise<TokenView & { token: string }> {
  const name = (input.name ?? 'token').trim();
  if (name === '' || [...name].length > MAX_NAME) throw AppError.invalidValue(`name: 1 to ${MAX_NAME} characters`);
  const scopes = checkScopes(input.scopes);
  const expiresAt = expiryOf(input.expires, now);
  if ((await repository.tokensOf(db, accountId)).length >= MAX_TOKENS_PER_PERSON) throw AppError.invalidValue(`at most ${MAX_TOKENS_PER_PERSON} tokens per person: revoke one first`);
  const token = newTokenSecret();
  const row = {
    id: newObjectId(),
    account_id: accountId,
    name,
    token_hash: tokenHash(token),
    token_hint: tokenHint(token),
    scopes: JSON.stringify(scopes),
    organization_ids: idList(input.organizationIds, 'organizationIds'),
    app_ids: idList(input.appIds, 'appIds'),
    expires_at: expiresAt,
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  await repository.insertToken(db, row);
  return { ...presentToken(row, now), token };
}

export async function listTokens(db: Executor, accountId: string, now: number): Promise<TokenView[]> {
  return (await repository.tokensOf(db, accountId)).map((row) => presentToken(row, now));
}

/** Revokes one of a person's tokens: it stops working at once in this process, within 5 s in others. */
export async function revokeToken(db: Executor, accountId: string, id: string, now: number): Promise<void> {
  if (!(await repository.findToken(db, accountId, id))) throw AppError.notFound(`token "${id.slice(0, 80)}" does not exist`);
  await repository.revokeToken(db, id, now);
}

/** The person with this email (10007 naming it otherwise). */
export async function accountByEmail(db: Executor, email: string) {
  const account = await repository.accountByEmail(db, email);
  if (!account) throw AppError.notFound(`no person with the email "${email.slice(0, 120)}"`);
  return account;
}
