/**
 * What a caller may do in one application, resolved once per request from the credential: an app
 * key's permission type, or (for people) their roles there. The policy (`policy.ts`) answers every
 * question from this alone, so it stays pure and testable without a database.
 */

/** Which records a right reaches: none, the caller's own, theirs and their subordinates', or all. */
export type DataScope = 'none' | 'own' | 'subordinates' | 'all';

/** A caller's rights in one worksheet. */
export interface WorksheetGrant {
  read: DataScope;
  edit: DataScope;
  delete: DataScope;
  add: boolean;
  /** Fields the caller never sees (nor filters, sorts or writes by). */
  hiddenFields: ReadonlySet<string>;
  /** Fields the caller sees but may not write. */
  readOnlyFields: ReadonlySet<string>;
}

export interface Grants {
  /** Sees and changes everything in the application, its structure included. */
  administrator: boolean;
  /** Changes nothing, whatever else is granted (an app key of the read-only type). */
  readOnly: boolean;
  /** Per-worksheet rights of a caller who is not an administrator; a worksheet not listed is out of reach. */
  worksheets: ReadonlyMap<string, WorksheetGrant>;
  /** The accounts whose records count as the caller's subordinates' (`subordinates` data scope), the caller's own included. */
  subordinateAccounts: readonly string[];
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/** Every right on every record and field. */
export const FULL_WORKSHEET: WorksheetGrant = { read: 'all', edit: 'all', delete: 'all', add: true, hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS };

/** Reading every record and field, changing nothing. */
export const READ_WORKSHEET: WorksheetGrant = { read: 'all', edit: 'none', delete: 'none', add: false, hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS };

/** Nothing at all. */
export const NO_WORKSHEET: WorksheetGrant = { read: 'none', edit: 'none', delete: 'none', add: false, hiddenFields: NO_FIELDS, readOnlyFields: NO_FIELDS };

/**
 * An administrator of the application: an app key of the "all" type, the application's owner, a
 * member of its administrator role; `readOnly` for an app key of the read-only type.
 * @example administratorGrants(false).administrator === true
 */
export function administratorGrants(readOnly: boolean): Grants {
  return { administrator: true, readOnly, worksheets: new Map(), subordinateAccounts: [] };
}

/** No rights in any application: a caller whose application is not known yet (organization- and user-level calls). */
export const NO_GRANTS: Grants = { administrator: false, readOnly: true, worksheets: new Map(), subordinateAccounts: [] };
