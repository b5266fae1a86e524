/** Records of worksheets. */
export { recordRoutes } from './routes.js';
export { recordLogRoutes } from './logs/log-routes.js';
export { RecycleBinSweep } from './recycle-bin-sweep.js';
