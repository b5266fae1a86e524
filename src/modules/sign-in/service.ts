import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { createToken, listTokens, revokeToken, type TokenInput, type TokenView } from '../access-tokens/index.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../people/index.js';
import * as repository from './repository.js';
import type { SignInAttempts } from './sign-in-attempts.js';

/**
 * What the sign-in and settings pages do, without the request: checking a password (with the same
 * answer and the same work whether or not the account exists), changing it, and a person's tokens.
 */

/** The shortest password a person may choose: the people module's rule, for every way a password is set. */
export { MIN_PASSWORD_LENGTH };
/** The longest (scrypt reads it all; nobody types more). */
export const MAX_PASSWORD_LENGTH = 1024;

/** A hash of a password nobody knows, checked when there is no account so that both cases take as long. */
let dummyHash: Promise<string> | null = null;
const standInHash = () => (dummyHash ??= hashPassword(`no account ${Math.random()}`));

export type SignInOutcome = { state: 'signed-in'; accountId: string } | { state: 'wrong' } | { state: 'limited'; retryAfterSeconds: number };

/**
 * Checks an email and password. A wrong password, an unknown email, a disabled person and a person
 * without a password all answer `wrong`, after the same scrypt work, and count as a failure for
 * the email and the address. Over a limit: `limited`, before any password is checked.
 */
export async function signIn(db: Executor, attempts: SignInAttempts, input: { email: string; password: string; ip: string }, now: number): Promise<SignInOutcome> {
  const wait = await attempts.waitMs(input.email, input.ip, now);
  if (wait > 0) return { state: 'limited', retryAfterSeconds: Math.ceil(wait / 1000) };
  const account = input.email.trim() === '' ? undefined : await repository.accountForSignIn(db, input.email);
  const right = await verifyPassword(input.password, account?.password_hash ?? (await standInHash()));
  if (!account || !right || Number(account.status) !== 1) {
    await attempts.fail(input.email, input.ip, now);
    return { state: 'wrong' };
  }
  await attempts.succeed(input.email, input.ip);
  return { state: 'signed-in', accountId: account.id };
}

/** The signed-in person, as the settings page shows them; null once they are gone or disabled. */
export async function signedInPerson(db: Executor, accountId: string) {
  const account = await repository.accountById(db, accountId);
  if (!account || Number(account.status) !== 1) return null;
  return { id: account.id, email: account.email, fullname: account.fullname, organizationId: account.organization_id };
}

export type PasswordChange = { state: 'changed' } | { state: 'refused'; message: string } | { state: 'limited'; retryAfterSeconds: number };

/**
 * Changes a person's password: the current one must be right (a wrong one counts as a failed
 * sign-in of their email, so a stolen session cannot guess it), the new one typed twice and at least
 * MIN_PASSWORD_LENGTH characters. The caller ends the person's other sessions.
 */
export async function changePassword(db: Executor, attempts: SignInAttempts, input: { accountId: string; current: string; password: string; confirm: string; ip: string }, now: number): Promise<PasswordChange> {
  const account = await repository.accountById(db, input.accountId);
  if (!account) return { state: 'refused', message: 'Your account no longer exists.' };
  const wait = await attempts.waitMs(account.email, input.ip, now);
  if (wait > 0) return { state: 'limited', retryAfterSeconds: Math.ceil(wait / 1000) };
  if (!(await verifyPassword(input.current, account.password_hash ?? (await standInHash())))) {
    await attempts.fail(account.email, input.ip, now);
    return { state: 'refused', message: 'Your current password is wrong.' };
  }
  if (input.password !== input.confirm) return { state: 'refused', message: 'The new password and its confirmation differ.' };
  if ([...input.password].length < MIN_PASSWORD_LENGTH) return { state: 'refused', message: `The new password is too short: at least ${MIN_PASSWORD_LENGTH} characters.` };
  if (input.password === input.current) return { state: 'refused', message: 'The new password is the same as the current one.' };
  await repository.setPasswordHash(db, account.id, await hashPassword(input.password));
  return { state: 'changed' };
}

/** What the settings page lists: the person's tokens and the applications a token may be limited to. */
export async function settingsOf(db: Executor, person: { id: string; organizationId: string }, now: number): Promise<{ tokens: TokenView[]; apps: Array<{ id: string; name: string }> }> {
  return { tokens: await listTokens(db, person.id, now), apps: await repository.appsOfOrganization(db, person.organizationId) };
}

/** The token form as posted. */
export interface TokenForm {
  name: string;
  scopes: string[];
  allScopes?: string;
  expires: string;
  expiresOn?: string;
  apps: string;
  appIds: string[];
}

/**
 * The form's choices as a token's input. The scopes are checked again by `createToken` (600311 for
 * one that is not a scope): the form offers only real ones, but anything can be posted.
 */
export function tokenInputOf(form: TokenForm): TokenInput {
  const expires = form.expires === 'date' ? (form.expiresOn && /^\d{4}-\d{2}-\d{2}$/.test(form.expiresOn) ? `${form.expiresOn}T23:59:59.999Z` : (form.expiresOn ?? '')) : form.expires;
  return {
    name: form.name,
    scopes: form.allScopes === 'on' ? 'all' : form.scopes,
    expires,
    appIds: form.apps === 'listed' ? form.appIds : undefined,
  };
}

export type TokenCreation = { state: 'created'; token: TokenView & { token: string } } | { state: 'refused'; message: string };

/** Makes a token from the form; what `createToken` refuses (a scope, a date, the name) is said on the page. */
export async function createPersonalToken(db: Executor, accountId: string, form: TokenForm, now: number): Promise<TokenCreation> {
  try {
    return { state: 'created', token: await createToken(db, accountId, tokenInputOf(form), now) };
  } catch (error) {
    if (error instanceof AppError && error.httpStatus < 500) return { state: 'refused', message: error.message };
    throw error;
  }
}

export async function revokePersonalToken(db: Executor, accountId: string, tokenId: string, now: number): Promise<void> {
  await revokeToken(db, accountId, tokenId, now);
}
