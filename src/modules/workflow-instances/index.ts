/** Workflow to-dos (instances and their work items): the routes, the to-do port workflow steps use, and the run-wide one the engine uses. */
export { workflowInstanceRoutes } from './routes.js';
export { runTodos, todoPort } from './todo-port.js';
