/** Records of worksheets. */
export { recordRoutes } from './routes.js';
