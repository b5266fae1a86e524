/** Applications: the app-level routes and what setup and the CLI use. */
export { appRoutes } from './routes.js';
export { appsOfOrganization, createApp, firstAppOf, organizationOfApp, type AppSummary } from './service.js';
export { AppFields } from './schemas.js';
