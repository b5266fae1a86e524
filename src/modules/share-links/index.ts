/** Share links of records: the API to make, list and revoke them, and the public page they open. */
export { shareLinkRoutes } from './routes.js';
export { sharePageRoutes } from './page-routes.js';
