/** Discussions of records. */
export { discussionRoutes } from './routes.js';
