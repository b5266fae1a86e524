/** Workflow definitions: drafts, their triggers and nodes, published versions. */
export { workflowDefinitionRoutes } from './routes.js';
/** How a process's declared parameters are stored in its trigger config (read by hooks and the process detail). */
export type { Parameter, ParameterType } from './triggers/parameters.js';
