/** Personal access tokens: made, listed and revoked here; checked by `auth/token-strategy.ts`. */
export { accountByEmail, createToken, listTokens, presentToken, revokeToken, checkScopes, expiryOf, MAX_TOKENS_PER_PERSON, type TokenInput, type TokenView } from './service.js';
export { findTokenByHash, noteTokenUse } from './repository.js';
export { TOKEN_PREFIX, tokenHash } from './token-secret.js';
export { ENDED_TOKEN_RETENTION_MS, sweepExpired } from './sweep.js';
