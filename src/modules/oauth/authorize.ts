import type { Executor } from '../../db/connection.js';
import { checkedScopes } from './clients.js';
import { CODE_LIFETIME_MS } from './grant-model.js';
import { ErrorCode, oauthRefusal } from './oauth-refusal.js';
import * as repository from './repository.js';
import { newSecret, secretHash } from './secrets.js';

/** The query of `GET /oauth/authorize` (and the consent form, which carries it on). */
export interface AuthorizeQuery {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** An authorization request found valid: what the consent page shows and the code will carry. */
export interface AuthorizeRequest {
  clientId: string;
  clientName: string;
  organizationId: string;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | undefined;
}

/** A refusal that is sent back to the client's redirect URI (RFC 6749 §4.1.2.1), with our code. */
export class RedirectedRefusal extends Error {
  constructor(
    readonly location: string,
    readonly code: number,
  ) {
    super(`authorization refused (${code})`);
  }
}

const STATE_PATTERN = /^[\x20-\x7e]{1,1024}$/;
const CHALLENGE_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
const json = (text: string) => JSON.parse(text) as string[];

/** The redirect URI with these parameters added (the URI's own query kept). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Checks an authorization request. Before the redirect URI is known to be the client's, a refusal
 * is an AppError (shown on a page: never redirect to an unregistered URI); after, it is a
 * `RedirectedRefusal` to the client with `error`, `error_description`, `error_code` and `state`.
 */
export async function checkAuthorizeRequest(db: Executor, query: AuthorizeQuery): Promise<AuthorizeRequest> {
  if (!query.client_id) throw oauthRefusal(ErrorCode.OAuthInvalidRequest, 'client_id is missing');
  const client = await repository.clientByClientId(db, query.client_id);
  if (!client) throw oauthRefusal(ErrorCode.OAuthClientUnavailable, 'no such client', 404);
  if (Number(client.enabled) !== 1) throw oauthRefusal(ErrorCode.OAuthClientDisabled, `the client "${client.name}" is disabled`, 403);
  // Exact string comparison with a registered URI: no prefix, no pattern, no open redirect.
  if (!query.redirect_uri || !json(client.redirect_uris).includes(query.redirect_uri)) throw oauthRefusal(ErrorCode.OAuthRedirectMismatch, 'redirect_uri is not one registered for this client');
  if (query.state !== undefined && !STATE_PATTERN.test(query.state)) throw oauthRefusal(ErrorCode.OAuthStateFailed, 'state must be 1 to 1024 printable ASCII characters');
  const redirectUri = query.redirect_uri;
  const refuse = (code: number, error: string, description: string) =>
    new RedirectedRefusal(redirectWith(redirectUri, { error, error_description: description, error_code: String(code), state: query.state }), code);
  if (query.response_type !== 'code') throw refuse(ErrorCode.OAuthInvalidRequest, 'unsupported_response_type', 'response_type must be code');
  const allowed = json(client.scopes);
  let scopes: string[];
  try {
    scopes = query.scope === undefined || query.scope.trim() === '' ? allowed : checkedScopes(query.scope.trim().split(/\s+/));
  } catch {
    throw refuse(ErrorCode.OAuthInvalidScope, 'invalid_scope', 'a requested scope is unknown');
  }
  const outside = scopes.find((scope) => !allowed.includes(scope));
  if (outside) throw refuse(ErrorCode.OAuthInvalidScope, 'invalid_scope', `the client may not ask for ${outside}`);
  const method = query.code_challenge_method;
  if (query.code_challenge === undefined) {
    if (client.secret_hash === null) throw refuse(ErrorCode.OAuthInvalidRequest, 'invalid_request', 'a public client must use PKCE (code_challenge with code_challenge_method S256)');
    if (method !== undefined) throw refuse(ErrorCode.OAuthInvalidRequest, 'invalid_request', 'code_challenge_method without code_challenge');
  } else {
    if (method !== 'S256') throw refuse(ErrorCode.OAuthInvalidRequest, 'invalid_request', 'code_challenge_method must be S256 (plain is refused)');
    if (!CHALLENGE_PATTERN.test(query.code_challenge)) throw refuse(ErrorCode.OAuthInvalidRequest, 'invalid_request', 'code_challenge is not a base64url S256 challenge');
  }
  return { clientId: client.client_id, clientName: client.name, organizationId: client.organization_id, redirectUri, scopes, state: query.state, codeChallenge: query.code_challenge };
}

/** Refuses a person who is not an active member of the client's organization (600320). */
export async function checkPersonMayAuthorize(db: Executor, request: AuthorizeRequest, accountId: string): Promise<void> {
  if (!(await repository.isActiveMember(db, request.organizationId, accountId))) {
    throw new RedirectedRefusal(
      redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'you are not a member of the organization of this client', error_code: String(ErrorCode.OAuthUserForbidden), state: request.state }),
      ErrorCode.OAuthUserForbidden,
    );
  }
}

/** The person approved: a single-use code (60 s) and the redirect that carries it with `state` unchanged. */
export async function issueCode(db: Executor, request: AuthorizeRequest, accountId: string, now: number): Promise<string> {
  const code = newSecret('oac_');
  await repository.insertCode(db, {
    code_hash: secretHash(code),
    client_id: request.clientId,
    account_id: accountId,
    scopes: JSON.stringify(request.scopes),
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge ?? null,
    code_challenge_method: request.codeChallenge === undefined ? null : 'S256',
    expires_at: now + CODE_LIFETIME_MS,
    used_at: null,
  });
  return redirectWith(request.redirectUri, { code, state: request.state });
}

/** The person declined (600003). */
export function declined(request: AuthorizeRequest): string {
  return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'the person declined', error_code: String(ErrorCode.OAuthCanceled), state: request.state });
}
