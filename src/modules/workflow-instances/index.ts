/** Workflow to-dos (instances and their work items): the routes, and the to-do port workflow steps use. */
export { workflowInstanceRoutes } from './routes.js';
export { todoPort } from './todo-port.js';
