export { administratorGrants, DATA_SCOPE_ORDER, FULL_WORKSHEET, MEMBER_WITHOUT_ROLE, NO_GRANTS, NO_WORKSHEET, READ_WORKSHEET, type DataScope, type Grants, type RecordActions, type RowRight, type ViewReach, type WorksheetGrant } from './grants.js';
export { grantsFromRoles, mergeGrants, type DataScopeCode, type GlobalPermissions, type PermissionScope, type RoleDefinition, type WorksheetPermission } from './role-grants.js';
export {
  administers,
  administersOrganizationOf,
  dataScopeOf,
  forbidden,
  hasWorksheetRight,
  reachesEveryRow,
  requireReadThroughView,
  seesChatbot,
  seesPage,
  requireAdministrator,
  requireFieldWrite,
  requireOrganizationAdministrator,
  requireScope,
  requireWorksheetRight,
  requireWriting,
  scopeAllows,
  seesField,
  worksheetGrant,
  writesField,
  type WorksheetRight,
} from './policy.js';
export { rowsFor, type ScopedRows } from './row-scope.js';
export { SCOPES, scopeNamed, type ScopeLevel, type ScopeName } from './scopes.js';
export { administers as administersRoute, administersOrganization, reads, writes, type RouteAccess } from './route-access.js';
export { appKeyActor, systemActor, type KeyWorksheetRights } from './actors.js';
export { ipAllowlist, ipRangeProblem, type IpAllowlist } from './ip-allowlist.js';
