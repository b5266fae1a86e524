import type OAuth2Server from '@node-oauth/oauth2-server';
import { ipAllowlist } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import { newGuid } from '../../shared/ids.js';
import type { AppError } from '../../shared/app-error.js';
import { ErrorCode, oauthRefusal } from './oauth-refusal.js';
import * as repository from './repository.js';
import { ACCESS_TOKEN_PREFIX, newSecret, REFRESH_TOKEN_PREFIX, secretHash, secretMatches } from './secrets.js';

/** How long codes, access tokens and refresh tokens live (ms). */
export const CODE_LIFETIME_MS = 60_000;
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 86_400_000;

export interface GrantRequest {
  db: Executor;
  now: number;
  /** The caller's address (the client's IP allowlist). */
  ip: string;
  /** The form posted to /oauth/token. */
  body: Readonly<Record<string, unknown>>;
  accessTokenLifetimeMs: number;
}

/** What the model found wrong, more precisely than the library's error can say (its 600xxx code). */
export interface GrantOutcome {
  refusal?: AppError;
}

const json = (text: string) => JSON.parse(text) as string[];
/** The library compares expiry with the real time: dates are given to it as time left from now. */
const libraryDate = (expiresAt: number, now: number) => new Date(Date.now() + (expiresAt - now));

/**
 * The storage model `@node-oauth/oauth2-server` runs the token grants on: clients, codes and token
 * families over our tables, one model per request. Where a lookup fails the model records the exact
 * refusal (600xxx) in `outcome` and returns nothing; the library then throws its RFC error, which
 * the token service replaces with the recorded refusal.
 */
export function grantModel(request: GrantRequest, outcome: GrantOutcome): OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel {
  const { db, now } = request;
  let lineage: { familyId: string; parentId: string | null } | null = null;
  let clientScopes: string[] = [];
  const refuse = (code: Parameters<typeof oauthRefusal>[0], message: string, status?: number) => {
    outcome.refusal ??= oauthRefusal(code, message, status);
    return null;
  };

  return {
    async getClient(clientId: string, clientSecret: string | undefined) {
      const client = await repository.clientByClientId(db, clientId);
      if (!client) return refuse(ErrorCode.OAuthClientCredentials, 'unknown client or wrong client secret', 401);
      if (client.secret_hash === null ? clientSecret !== undefined && clientSecret !== '' : !clientSecret || !secretMatches(clientSecret, client.secret_hash)) {
        return refuse(ErrorCode.OAuthClientCredentials, 'unknown client or wrong client secret', 401);
      }
      if (Number(client.enabled) !== 1) return refuse(ErrorCode.OAuthClientDisabled, 'this client is disabled', 401);
      const allowed = json(client.allowed_ips);
      if (allowed.length > 0 && !ipAllowlist(allowed).allows(request.ip)) return refuse(ErrorCode.OAuthClientIpRestricted, `the address ${request.ip} may not use this client`, 403);
      clientScopes = json(client.scopes);
      return { id: client.client_id, grants: ['authorization_code', 'refresh_token'], redirectUris: json(client.redirect_uris), accessTokenLifetime: Math.round(request.accessTokenLifetimeMs / 1000) };
    },

    async getAuthorizationCode(code: string) {
      const row = await repository.codeByHash(db, secretHash(code));
      if (!row) return refuse(ErrorCode.OAuthInvalidCode, 'unknown authorization code');
      if (row.used_at !== null) {
        // A code used twice: the tokens it gave are revoked too (RFC 6749 §4.1.2).
        await repository.revokeFamily(db, row.code_hash, now);
        return refuse(ErrorCode.OAuthInvalidCode, 'this authorization code was already used; the tokens issued for it are revoked');
      }
      if (Number(row.expires_at) <= now) return refuse(ErrorCode.OAuthInvalidCode, 'this authorization code expired');
      if (request.body.redirect_uri !== row.redirect_uri) return refuse(ErrorCode.OAuthRedirectMismatch, 'redirect_uri is not the one of the authorization request');
      lineage = { familyId: row.code_hash, parentId: null };
      return {
        authorizationCode: code,
        expiresAt: libraryDate(Number(row.expires_at), now),
        redirectUri: row.redirect_uri,
        scope: json(row.scopes),
        client: { id: row.client_id, grants: ['authorization_code', 'refresh_token'] },
        user: { id: row.account_id },
        ...(row.code_challenge === null ? {} : { codeChallenge: row.code_challenge, codeChallengeMethod: row.code_challenge_method ?? 'S256' }),
      };
    },

    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode) {
      if (await repository.useCode(db, secretHash(code.authorizationCode), now)) return true;
      refuse(ErrorCode.OAuthInvalidCode, 'this authorization code was already used');
      return false;
    },

    async saveAuthorizationCode() {
      // Codes are issued by the consent page (authorize.ts), not through the library.
      return null;
    },

    async getRefreshToken(refreshToken: string) {
      const row = await repository.tokenByRefreshHash(db, secretHash(refreshToken));
      if (!row) return refuse(ErrorCode.OAuthRefreshInvalid, 'unknown refresh token');
      if (row.refresh_used_at !== null) {
        await repository.revokeFamily(db, row.family_id, now);
        return refuse(ErrorCode.OAuthRefreshRefused, 'this refresh token was already used: every token of this authorization is now revoked');
      }
      if (row.revoked_at !== null) return refuse(ErrorCode.OAuthAuthorizationExpired, 'this authorization was revoked');
      if (Number(row.account_status) !== 1) return refuse(ErrorCode.OAuthAuthorizationExpired, 'the person of this authorization is disabled');
      if (row.refresh_expires_at !== null && Number(row.refresh_expires_at) <= now) return refuse(ErrorCode.OAuthRefreshInvalid, 'this refresh token expired');
      const scopes = json(row.scopes);
      if (!scopes.every((scope) => clientScopes.includes(scope))) return refuse(ErrorCode.OAuthScopeChanged, "the client's scopes changed since this authorization: ask the person to consent again");
      lineage = { familyId: row.family_id, parentId: row.id };
      return {
        refreshToken,
        refreshTokenExpiresAt: row.refresh_expires_at === null ? undefined : libraryDate(Number(row.refresh_expires_at), now),
        scope: scopes,
        client: { id: row.client_id, grants: ['authorization_code', 'refresh_token'] },
        user: { id: row.account_id },
        tokenId: row.id,
        familyId: row.family_id,
      };
    },

    async revokeToken(token: OAuth2Server.RefreshToken) {
      if (await repository.useRefreshToken(db, token.tokenId as string, now)) return true;
      await repository.revokeFamily(db, token.familyId as string, now);
      refuse(ErrorCode.OAuthRefreshRefused, 'this refresh token was already used: every token of this authorization is now revoked');
      return false;
    },

    async generateAccessToken() {
      return newSecret(ACCESS_TOKEN_PREFIX);
    },

    async generateRefreshToken() {
      return newSecret(REFRESH_TOKEN_PREFIX);
    },

    async saveToken(token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuth2Server.User) {
      if (!lineage) return null;
      const accessExpiresAt = now + request.accessTokenLifetimeMs;
      const refreshExpiresAt = now + REFRESH_TOKEN_LIFETIME_MS;
      await repository.insertToken(db, {
        id: newGuid(),
        family_id: lineage.familyId,
        parent_id: lineage.parentId,
        client_id: client.id,
        account_id: user.id as string,
        scopes: JSON.stringify(token.scope ?? []),
        access_hash: secretHash(token.accessToken),
        access_expires_at: accessExpiresAt,
        refresh_hash: token.refreshToken ? secretHash(token.refreshToken) : null,
        refresh_expires_at: token.refreshToken ? refreshExpiresAt : null,
        refresh_used_at: null,
        created_at: now,
        revoked_at: null,
      });
      return { ...token, accessTokenExpiresAt: libraryDate(accessExpiresAt, now), client, user };
    },

    async getAccessToken() {
      // Bearer tokens are checked by auth/oauth-strategy.ts, not through the library.
      return null;
    },
  };
}
