/** Option sets: their routes, and how worksheets find the set a choice field uses. */
export { optionSetRoutes } from './routes.js';
export { claimOptionSet, type OptionSet } from './repository.js';
