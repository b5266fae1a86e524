/** Charts of worksheets. */
export { chartRoutes } from './routes.js';
