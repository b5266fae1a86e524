/** Workflow definitions: drafts, their triggers and nodes, published versions. */
export { workflowDefinitionRoutes } from './routes.js';
