/** First run and the administrative CLI commands. */
export { addKey, createAppWithKey, ensureSetup, OWNER_EMAIL, type ExistingSetup, type FreshSetup } from './service.js';
export { hashPassword, verifyPassword } from './password.js';
