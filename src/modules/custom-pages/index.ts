/** Custom pages of applications. */
export { customPageRoutes } from './routes.js';
