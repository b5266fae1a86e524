/** Records of worksheets. */
export { recordRoutes } from './routes.js';
export { getRecord, projection } from './service.js';
export { readableFields } from './presenter.js';
export { cellText } from './record-markdown.js';
