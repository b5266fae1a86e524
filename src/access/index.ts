export { administratorGrants, FULL_WORKSHEET, NO_GRANTS, NO_WORKSHEET, READ_WORKSHEET, type DataScope, type Grants, type WorksheetGrant } from './grants.js';
export {
  administers,
  dataScopeOf,
  forbidden,
  hasWorksheetRight,
  requireAdministrator,
  requireFieldWrite,
  requireScope,
  requireWorksheetRight,
  requireWriting,
  scopeAllows,
  seesField,
  worksheetGrant,
  writesField,
  type WorksheetRight,
} from './policy.js';
export { EVERY_ROW_FOR_THE_SERVER, rowsFor, type ScopedRows } from './row-scope.js';
export { SCOPES, scopeNamed, type ScopeLevel, type ScopeName } from './scopes.js';
export { administers as administersRoute, reads, writes, type RouteAccess } from './route-access.js';
export { appKeyActor, systemActor } from './actors.js';
export { ipAllowlist, ipRangeProblem, type IpAllowlist } from './ip-allowlist.js';
