/** Worksheets: their routes, and what other modules may use. */
export { worksheetRoutes } from './routes.js';
export { createWorksheet, deleteAllWorksheets, ensureSortIndex, loadSchema } from './service.js';
export type { WorksheetSchema } from './worksheet-schema.js';
