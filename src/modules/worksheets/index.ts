/** Worksheets: their routes, and what other modules may use. */
export { worksheetRoutes } from './routes.js';
export { createWorksheet, deleteAllWorksheets, forgetCachedSchema, loadAppLinks, loadSchema, requestReadIndex } from './service.js';
export { linkFieldsOfApp } from './repository.js';
export { IndexBuilder, type IndexRequest } from './index-builder.js';
export { readIndexColumnsOf, type WorksheetSchema } from './worksheet-schema.js';
export { applyOptionSet, fieldsUsingOptionSet, optionSetUsage } from './option-set-fields.js';
