import { NO_WORKSHEET, type DataScope, type Grants, type RecordActions, type WorksheetGrant } from './grants.js';
import { mergeReaches } from './view-reach.js';

/**
 * A person's grants in an application, from the roles they hold there (pure: the roles are read by
 * the caller). Several roles add up: each right reaches as far as the widest role takes it, a field
 * is hidden only when every role that reaches the worksheet hides it, and writable when any lets it
 * be written.
 */

/** The public `permissionScope`: 80 all; 60 read all, change own; 30 read joined, change own; 20 read only; 0 per worksheet. */
export type PermissionScope = 80 | 60 | 30 | 20 | 0;

/** The public `recordDataScope` values: 0 none, 20 own, 30 own and subordinates', 100 all. */
export type DataScopeCode = 0 | 20 | 30 | 100;

export interface GlobalPermissions {
  addRecord: boolean;
  share: boolean;
  discuss: boolean;
  log: boolean;
}

export interface WorksheetPermission {
  id: string;
  recordPermissionInViews: Array<{ viewId: string; read: boolean; edit: boolean; delete: boolean }>;
  recordDataScope: { read: DataScopeCode; edit: DataScopeCode; delete: DataScopeCode };
  recordActions: { add: boolean; share: boolean; discuss: boolean; log: boolean };
  fieldPermissions: Array<{ id: string; read: boolean; edit: boolean; add: boolean }>;
}

/** A role as the grants need it. */
export interface RoleDefinition {
  permissionScope: PermissionScope;
  globalPermissions: GlobalPermissions;
  worksheetPermissions: WorksheetPermission[];
  /** For scope 0: the custom pages the role shows (`enable`); roles of other scopes show every page. */
  pagePermissions: Array<{ id: string; enable: boolean }>;
  chatbotPermissions: Array<{ id: string; enable: boolean }>;
}

const DATA_SCOPE_OF_CODE: Record<DataScopeCode, DataScope> = { 0: 'none', 20: 'own', 30: 'subordinates', 100: 'all' };
const NO_FIELDS: ReadonlySet<string> = new Set();

/** What a role with a scope above 0 gives in every worksheet. */
function uniformGrant(role: RoleDefinition): WorksheetGrant {
  const g = role.globalPermissions;
  const actions: RecordActions = { share: g.share, discuss: g.discuss, log: g.log };
  const base = { hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS, actions };
  switch (role.permissionScope) {
    case 80:
      return { ...base, read: 'all', edit: 'all', delete: 'all', add: g.addRecord };
    case 60:
      return { ...base, read: 'all', edit: 'own', delete: 'own', add: g.addRecord };
    case 30:
      return { ...base, read: 'joined', edit: 'own', delete: 'own', add: g.addRecord };
    default:
      return { ...base, read: 'all', edit: 'none', delete: 'none', add: false };
  }
}

/**
 * What a scope-0 role gives in one worksheet. As on the public service, records are reached through
 * views: a right reaches the records of the views that grant it (`recordPermissionInViews`), as far
 * as `recordDataScope` says; without such a view, nothing.
 */
function worksheetGrantOf(permission: WorksheetPermission, viewFilters: ReadonlyMap<string, unknown>): WorksheetGrant {
  const through = (right: 'read' | 'edit' | 'delete'): DataScope => {
    const granted = permission.recordPermissionInViews.some((v) => v[right]);
    return granted ? DATA_SCOPE_OF_CODE[permission.recordDataScope[right]] : 'none';
  };
  const viewsFor = (right: 'read' | 'edit' | 'delete') => [...new Set(permission.recordPermissionInViews.filter((v) => v[right]).map((v) => v.viewId))];
  const read = through('read');
  const edit = read === 'none' ? 'none' : through('edit');
  const remove = read === 'none' ? 'none' : through('delete');
  const hidden = new Set(permission.fieldPermissions.filter((f) => !f.read).map((f) => f.id));
  const readOnly = new Set(permission.fieldPermissions.filter((f) => f.read && !f.edit).map((f) => f.id));
  const actions = permission.recordActions;
  const reach = (scope: DataScope, right: 'read' | 'edit' | 'delete') => (scope === 'none' ? [] : [{ scope, views: viewsFor(right) }]);
  const named = new Set(permission.recordPermissionInViews.map((v) => v.viewId));
  return {
    read,
    edit,
    delete: remove,
    throughViews: { read: reach(read, 'read'), edit: reach(edit, 'edit'), delete: reach(remove, 'delete') },
    viewFilters: new Map([...viewFilters].filter(([id]) => named.has(id))),
    add: actions.add,
    hiddenFields: hidden,
    readOnlyFields: readOnly,
    actions: { share: actions.share, discuss: actions.discuss, log: actions.log },
  };
}

const reachesNothing = (g: WorksheetGrant) => g.read === 'none' && !g.add;

/** Two roles' grants in one worksheet, added up. */
export function mergeGrants(a: WorksheetGrant, b: WorksheetGrant): WorksheetGrant {
  if (reachesNothing(a)) return b;
  if (reachesNothing(b)) return a;
  const notWritable = (g: WorksheetGrant) => new Set([...g.hiddenFields, ...g.readOnlyFields]);
  const aLocked = notWritable(a);
  const bLocked = notWritable(b);
  const hidden = new Set([...a.hiddenFields].filter((id) => b.hiddenFields.has(id)));
  const readOnly = new Set([...aLocked].filter((id) => bLocked.has(id) && !hidden.has(id)));
  return {
    ...mergeReaches(a, b),
    add: a.add || b.add,
    hiddenFields: hidden,
    readOnlyFields: readOnly,
    actions: { share: a.actions.share || b.actions.share, discuss: a.actions.discuss || b.actions.discuss, log: a.actions.log || b.actions.log },
  };
}

/**
 * The grants of a person who holds `roles` (none of them an administrators' role) in an
 * application; `viewFilters` holds the stored filters of the views the roles name (a view missing
 * there was deleted, and shows nothing). A role of scope above 0 shows every custom page; one of
 * scope 0 those its `pagePermissions` enable; chatbots alike, through `chatbotPermissions`.
 * @example grantsFromRoles([{ permissionScope: 60, globalPermissions, worksheetPermissions: [], pagePermissions: [], chatbotPermissions: [] }], subordinates, new Map())
 */
export function grantsFromRoles(roles: RoleDefinition[], subordinateAccounts: readonly string[], viewFilters: ReadonlyMap<string, unknown>): Grants {
  let otherWorksheets = NO_WORKSHEET;
  const listed = new Map<string, WorksheetGrant>();
  let pages: Set<string> | null = new Set();
  let chatbots: Set<string> | null = new Set();
  for (const role of roles) {
    if (role.permissionScope > 0) {
      otherWorksheets = mergeGrants(otherWorksheets, uniformGrant(role));
      pages = null;
      chatbots = null;
      continue;
    }
    for (const permission of role.worksheetPermissions) listed.set(permission.id, mergeGrants(listed.get(permission.id) ?? NO_WORKSHEET, worksheetGrantOf(permission, viewFilters)));
    for (const page of role.pagePermissions) if (page.enable) pages?.add(page.id);
    for (const chatbot of role.chatbotPermissions) if (chatbot.enable) chatbots?.add(chatbot.id);
  }
  // A worksheet a scope-0 role lists also has what the uniform roles give everywhere.
  const worksheets = new Map([...listed].map(([id, grant]) => [id, mergeGrants(grant, otherWorksheets)]));
  return { administrator: false, readOnly: false, worksheets, otherWorksheets, subordinateAccounts, pages, chatbots };
}
