/** Option sets: their routes, and how worksheets find the set a choice field uses. */
export { optionSetRoutes } from './routes.js';
export { findOptionSet, type OptionSet } from './repository.js';
