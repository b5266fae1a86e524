import type OAuth2Server from '@node-oauth/oauth2-server';
import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { grantModel, type GrantOutcome } from './grant-model.js';
import { ErrorCode, oauthRefusal } from './oauth-refusal.js';
import * as repository from './repository.js';
import { secretHash } from './secrets.js';

export interface TokenCall {
  db: Executor;
  now: number;
  ip: string;
  accessTokenLifetimeMs: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** The RFC 6749 §5.1 answer. */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

/** The 600xxx code of an error of the library that the model did not explain. */
function refusalOfLibraryError(error: OAuth2Server.OAuthError, grantType: unknown): AppError {
  const message = error.message.replace(/^(Invalid (request|grant|client|scope)|Unauthorized client|Unsupported grant type): /, '');
  switch (error.name) {
    case 'invalid_client':
      return oauthRefusal(ErrorCode.OAuthClientCredentials, message, 401);
    case 'invalid_grant':
      return oauthRefusal(grantType === 'refresh_token' ? ErrorCode.OAuthRefreshInvalid : ErrorCode.OAuthInvalidCode, message);
    case 'invalid_scope':
      return oauthRefusal(grantType === 'refresh_token' ? ErrorCode.OAuthScopeChanged : ErrorCode.OAuthInvalidScope, message);
    case 'unauthorized_client':
      return oauthRefusal(ErrorCode.OAuthClientUnavailable, message);
    case 'server_error':
      throw error;
    default:
      return oauthRefusal(ErrorCode.OAuthInvalidRequest, message);
  }
}

/**
 * The OAuth library, loaded on the first token request: about 1.5 MB of heap an idle server (and
 * one whose clients never use OAuth) need not hold.
 */
let library: Promise<typeof OAuth2Server> | undefined;

const flatHeaders = (headers: TokenCall['headers']) =>
  Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])));

/**
 * `POST /oauth/token`: the authorization-code grant (with PKCE; `plain` refused) and the refresh
 * grant (rotating: each refresh token works once; a second use revokes its whole family), run by
 * `@node-oauth/oauth2-server` over our model. Client authentication by HTTP Basic or the form's
 * `client_id`/`client_secret`; a public client sends only `client_id` and its PKCE verifier.
 */
export async function exchangeToken(call: TokenCall): Promise<TokenAnswer> {
  const Library = await (library ??= import('@node-oauth/oauth2-server').then((module) => module.default));
  const outcome: GrantOutcome = {};
  const server = new Library({
    model: grantModel({ db: call.db, now: call.now, ip: call.ip, body: call.body, accessTokenLifetimeMs: call.accessTokenLifetimeMs }, outcome),
    accessTokenLifetime: Math.round(call.accessTokenLifetimeMs / 1000),
    refreshTokenLifetime: 30 * 86_400,
    allowEmptyState: true,
    alwaysIssueNewRefreshToken: true,
    // Client authentication is the model's to judge: a confidential client must send its secret, a public one must not.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
  });
  const request = new Library.Request({ method: 'POST', headers: flatHeaders(call.headers), query: {}, body: call.body });
  const response = new Library.Response({ headers: {} });
  try {
    await server.token(request, response);
  } catch (error) {
    if (outcome.refusal) throw outcome.refusal;
    if (error instanceof Library.OAuthError) throw refusalOfLibraryError(error, call.body.grant_type);
    throw error;
  }
  // The library counts expires_in down from the real clock, a second short when it ticks meanwhile:
  // every token is issued for the whole configured lifetime, so that is what is answered.
  return { ...(response.body as TokenAnswer), expires_in: Math.round(call.accessTokenLifetimeMs / 1000) };
}

/**
 * `POST /oauth/revoke` (RFC 7009): revokes the authorization (the whole token family) that an
 * access or refresh token of this client belongs to. An unknown token is not an error.
 */
export async function revokeGrantToken(db: Executor, clientId: string, token: string, now: number): Promise<void> {
  const familyId = await repository.familyOfToken(db, secretHash(token), clientId);
  if (familyId !== undefined) await repository.revokeFamily(db, familyId, now);
}

/** Authenticates a client at the revocation endpoint the way the token endpoint does. */
export async function authenticateClient(call: Omit<TokenCall, 'accessTokenLifetimeMs'>, credentials: { clientId: string; clientSecret?: string }): Promise<string> {
  const outcome: GrantOutcome = {};
  const model = grantModel({ ...call, accessTokenLifetimeMs: 1 }, outcome);
  const client = await model.getClient(credentials.clientId, credentials.clientSecret as string);
  if (!client) throw outcome.refusal ?? oauthRefusal(ErrorCode.OAuthClientCredentials, 'unknown client or wrong client secret', 401);
  return client.id;
}
