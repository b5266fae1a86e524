/** The OAuth 2.0 provider: clients, the consent page, the token and revocation endpoints, and what the bearer strategy reads. */
export { createClient, listClients, setClientEnabled, type ClientInput, type ClientView } from './clients.js';
export { consentRoutes } from './consent-routes.js';
export { oauthRoutes } from './routes.js';
export { oauthClientRoutes } from './client-routes.js';
export { accessTokenCheck } from './repository.js';
export { ACCESS_TOKEN_PREFIX, secretHash } from './secrets.js';
export { issueCode, checkAuthorizeRequest } from './authorize.js';
export { sweepExpired } from './sweep.js';
