/** Regions: the lookup routes, and the regions record fields name by code. */
export { regionRoutes } from './routes.js';
export { regionsByIds, type Region } from './repository.js';
