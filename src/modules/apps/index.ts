/** Applications: the app-level routes and what setup and the CLI use. */
export { appRoutes } from './routes.js';
export { createApp, firstAppOf } from './service.js';
