/** The sign-in, sign-out and settings pages, and the sessions they keep. */
export { signInPageRoutes, type SignInPageOptions } from './page-routes.js';
export { SessionStore, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionIdHash } from './session-store.js';
export { SIGN_IN_WINDOW_MS } from './sign-in-attempts.js';
export { CSRF_COOKIE, SESSION_COOKIE, sessionSecretOf, sessionSigner } from './web-session.js';
export { safeNextPath } from './next-path.js';
export { type PageKit } from './page-routes.js';
export { csrfField, messagePage, page, PAGE_CONTENT_SECURITY_POLICY } from './layout.js';
export { replyPage } from './page-replies.js';
export { apiCsrf, API_CSRF_HEADER, type ApiCsrf } from './api-csrf.js';
export { sweepExpired } from './sweep.js';
