/** Roles of applications: their routes, and a person's standing (grants) in an application. */
export { roleRoutes } from './routes.js';
export { appsListedFor, standingInApp, type Standing } from './standing.js';
export { roleMemberRefs } from './role-members.js';
