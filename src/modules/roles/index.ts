/** Roles of applications: their routes, and a person's standing (grants) in an application. */
export { roleRoutes } from './routes.js';
export { appsWithRolesOf, standingChanges, standingInApp, type Standing } from './standing.js';
export { roleMemberRefs } from './role-members.js';
