/** The user's own view (organizations, profile, applications, creating one) and the member and department lookups. */
export { directoryRoutes } from './routes.js';
