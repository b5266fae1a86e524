/** Views of worksheets: their routes, and what reads through a view (`viewId`) take from one. */
export { viewRoutes } from './routes.js';
export { viewFilters, viewForRead, visibleFieldIds, type ViewForRead } from './service.js';
