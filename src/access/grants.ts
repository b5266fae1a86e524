/**
 * What a caller may do in one application, resolved once per request from the credential: an app
 * key's permission type, or (for people) their roles there. The policy (`policy.ts`) answers every
 * question from this alone, so it stays pure and testable without a database.
 */

/**
 * Which records a right reaches, each wider than the one before: none; the caller's own (`_owner`);
 * those they joined (own, made by them, or naming them in a member field); those and their
 * subordinates' (owned by people in the departments they manage); all.
 */
export type DataScope = 'none' | 'own' | 'joined' | 'subordinates' | 'all';

export const DATA_SCOPE_ORDER: readonly DataScope[] = ['none', 'own', 'joined', 'subordinates', 'all'];

/** What a caller may do with records beyond reading and writing them. */
export interface RecordActions {
  share: boolean;
  discuss: boolean;
  log: boolean;
}

/** The rights a grant holds on records one by one (adding is a right on the worksheet). */
export type RowRight = 'read' | 'edit' | 'delete';

/**
 * Records a right reaches through views: those its data scope reaches that one of `views` shows
 * (passes the view's filter); `views` null: every record of the data scope, whatever the views.
 */
export interface ViewReach {
  scope: Exclude<DataScope, 'none'>;
  views: readonly string[] | null;
}

/** A caller's rights in one worksheet. */
export interface WorksheetGrant {
  /** How far each right reaches at the widest (through some view, for a right limited to views). */
  read: DataScope;
  edit: DataScope;
  delete: DataScope;
  /**
   * The rights that reach records only through views (roles of scope 0, custom keys that name
   * views): the union of these reaches. A right not named here reaches its data scope whole.
   */
  throughViews?: Partial<Record<RowRight, readonly ViewReach[]>>;
  /** The stored filters of the views `throughViews` names, by view id; a view not here no longer exists and shows nothing. */
  viewFilters?: ReadonlyMap<string, unknown>;
  add: boolean;
  /** Fields the caller never sees (nor filters, sorts or writes by). */
  hiddenFields: ReadonlySet<string>;
  /** Fields the caller sees but may not write. */
  readOnlyFields: ReadonlySet<string>;
  actions: RecordActions;
}

export interface Grants {
  /** Sees and changes everything in the application, its structure included. */
  administrator: boolean;
  /** Changes nothing, whatever else is granted (an app key of the read-only type). */
  readOnly: boolean;
  /** Per-worksheet rights of a caller who is not an administrator; a worksheet not listed has `otherWorksheets`. */
  worksheets: ReadonlyMap<string, WorksheetGrant>;
  /** The rights in every worksheet not listed (roles that reach all worksheets alike); `NO_WORKSHEET` when none. */
  otherWorksheets: WorksheetGrant;
  /** The accounts whose records count as the caller's subordinates' (`subordinates` data scope), the caller's own included. */
  subordinateAccounts: readonly string[];
  /** The custom pages the caller may see; null: every page (administrators, keys, roles that reach every item of the application). */
  pages: ReadonlySet<string> | null;
  /** The chatbots the caller may see and talk to; null: every chatbot (as `pages`). */
  chatbots: ReadonlySet<string> | null;
}

const NO_FIELDS: ReadonlySet<string> = new Set();
const ALL_ACTIONS: RecordActions = { share: true, discuss: true, log: true };
const NO_ACTIONS: RecordActions = { share: false, discuss: false, log: false };

/** Every right on every record and field. */
export const FULL_WORKSHEET: WorksheetGrant = { read: 'all', edit: 'all', delete: 'all', add: true, hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS, actions: ALL_ACTIONS };

/** Reading every record and field, changing nothing. */
export const READ_WORKSHEET: WorksheetGrant = { read: 'all', edit: 'none', delete: 'none', add: false, hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS, actions: ALL_ACTIONS };

/** Nothing at all. */
export const NO_WORKSHEET: WorksheetGrant = { read: 'none', edit: 'none', delete: 'none', add: false, hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS, actions: NO_ACTIONS };

/**
 * An administrator of the application: an app key of the "all" type, the application's owner, a
 * member of its administrator role; `readOnly` for an app key of the read-only type.
 * @example administratorGrants(false).administrator === true
 */
export function administratorGrants(readOnly: boolean): Grants {
  return { administrator: true, readOnly, worksheets: new Map(), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: null, chatbots: null };
}

/** No item of a kind (pages, chatbots). */
const NO_PAGES: ReadonlySet<string> = new Set();

/** No rights in any application: a caller whose application is not known yet (organization- and user-level calls). */
export const NO_GRANTS: Grants = { administrator: false, readOnly: true, worksheets: new Map(), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: NO_PAGES, chatbots: NO_PAGES };

/** A member of the application's organization with no role in it: no worksheet at all. */
export const MEMBER_WITHOUT_ROLE: Grants = { administrator: false, readOnly: false, worksheets: new Map(), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: NO_PAGES, chatbots: NO_PAGES };
