/** Processes the API can start, their hooks, and the run history of workflows. */
export { workflowRunRoutes } from './routes.js';
