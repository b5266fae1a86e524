import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { FULL_WORKSHEET, READ_WORKSHEET, type DataScope, type RowRight, type WorksheetGrant } from './grants.js';
import type { ScopeName } from './scopes.js';
import { reachesEveryRecord, reachesThroughView } from './view-reach.js';

/**
 * May this caller do this: the one place that answers, as pure functions of the actor (its
 * credential's scopes and its grants in the application). Services ask before they act; reads get
 * their rows through `row-scope.ts`, which compiles the data scope these functions name.
 */

/** The rights a worksheet grant holds, as services ask for them. */
export type WorksheetRight = 'read' | 'add' | 'edit' | 'delete';

/**
 * A refusal of a missing right: 10005, or 600320 for an OAuth caller (the public service's code
 * for "the token is valid but the user lacks access").
 */
export function forbidden(actor: Actor, message: string): AppError {
  if (actor.kind === 'oauth') return new AppError(ErrorCode.OAuthUserForbidden, 403, message);
  return AppError.permissionDenied(message);
}

/**
 * Whether the credential was given this scope: always for credentials that are not narrowed (app
 * keys, sessions, the server's own work).
 * @example scopeAllows(tokenActor, 'record:list')
 */
export function scopeAllows(actor: Actor, scope: ScopeName): boolean {
  return actor.scopes === null || actor.scopes.has(scope);
}

/** Refuses a call its credential's scopes do not cover (10005; 600320 through OAuth), naming the scope. */
export function requireScope(actor: Actor, scope: ScopeName): void {
  if (!scopeAllows(actor, scope)) throw forbidden(actor, `this credential was not given the scope ${scope}`);
}

/** Refuses any change by a caller that may change nothing (a read-only app key). */
export function requireWriting(actor: Actor): void {
  if (actor.grants.readOnly) throw forbidden(actor, 'this key is read-only and cannot change data');
}

/** Whether the caller administers its application (its structure, views, charts, pages, roles). */
export function administers(actor: Actor): boolean {
  return actor.grants.administrator;
}

/** Refuses a change of the application's structure by a caller that does not administer it. */
export function requireAdministrator(actor: Actor, what: string): void {
  if (!administers(actor)) throw forbidden(actor, `only an administrator of the application may ${what}`);
  requireWriting(actor);
}

/** The caller's rights in a worksheet: everything for administrators (reading only, for a read-only key). */
export function worksheetGrant(actor: Actor, worksheetId: string): WorksheetGrant {
  if (actor.grants.administrator) return actor.grants.readOnly ? READ_WORKSHEET : FULL_WORKSHEET;
  const grant = actor.grants.worksheets.get(worksheetId) ?? actor.grants.otherWorksheets;
  return actor.grants.readOnly ? { ...grant, edit: 'none', delete: 'none', add: false } : grant;
}

/** Whether the caller may use a right on some records of the worksheet at least. */
export function hasWorksheetRight(actor: Actor, worksheetId: string, right: WorksheetRight): boolean {
  const grant = worksheetGrant(actor, worksheetId);
  return right === 'add' ? grant.add : grant[right] !== 'none';
}

const RIGHT_WORDS: Record<WorksheetRight, string> = { read: 'read records of', add: 'add records to', edit: 'edit records of', delete: 'delete records of' };

/** Refuses a right the caller holds on no record of the worksheet (10005 / 600320), naming it. */
export function requireWorksheetRight(actor: Actor, worksheet: { id: string; name: string }, right: WorksheetRight): void {
  if (right !== 'read') requireWriting(actor);
  if (!hasWorksheetRight(actor, worksheet.id, right)) throw forbidden(actor, `you may not ${RIGHT_WORDS[right]} the worksheet "${worksheet.name}"`);
}

/** How far a right reaches in the worksheet for the caller, at the widest (within the views it comes through, if it comes through views). */
export function dataScopeOf(actor: Actor, worksheetId: string, right: RowRight): DataScope {
  return worksheetGrant(actor, worksheetId)[right];
}

/** Whether a right reaches every record of the worksheet for the caller (nothing to check record by record). */
export function reachesEveryRow(actor: Actor, worksheetId: string, right: RowRight): boolean {
  return reachesEveryRecord(worksheetGrant(actor, worksheetId), right);
}

/**
 * Refuses a read through a view (`viewId` on lists and pivots) by a caller whose read right does
 * not come through that view (10005 / 600320): rights given per view are used through those views.
 */
export function requireReadThroughView(actor: Actor, worksheet: { id: string; name: string }, view: { id: string; name: string }): void {
  if (!reachesThroughView(worksheetGrant(actor, worksheet.id), 'read', view.id)) throw forbidden(actor, `you may not read records of the worksheet "${worksheet.name}" through the view "${view.name}"`);
}

/** Whether the caller may see a custom page of the application (its roles enable it, or reach every item). */
export function seesPage(actor: Actor, pageId: string): boolean {
  const pages = actor.grants.pages;
  return actor.grants.administrator || pages === null || pages.has(pageId);
}

/** Whether the caller may see and talk to a chatbot (roles of scope 0 list the ones they enable in `chatbotPermissions`). */
export function seesChatbot(actor: Actor, chatbotId: string): boolean {
  const chatbots = actor.grants.chatbots;
  return actor.grants.administrator || chatbots === null || chatbots.has(chatbotId);
}

/** Whether the caller may see a field (hidden fields are never shown, filtered, sorted or written). */
export function seesField(actor: Actor, worksheetId: string, fieldId: string): boolean {
  return !worksheetGrant(actor, worksheetId).hiddenFields.has(fieldId);
}

/** Whether the caller may write a field it sees. */
export function writesField(actor: Actor, worksheetId: string, fieldId: string): boolean {
  const grant = worksheetGrant(actor, worksheetId);
  return !grant.hiddenFields.has(fieldId) && !grant.readOnlyFields.has(fieldId);
}

/** Refuses a write to a field the caller may not write (430014), naming it. */
export function requireFieldWrite(actor: Actor, worksheetId: string, field: { id: string; name: string }): void {
  if (!writesField(actor, worksheetId, field.id)) throw new AppError(ErrorCode.FieldPermissionDenied, 403, `you may not write the field "${field.name}"`);
}

/**
 * Whether the caller is a person who administers the organization it acts in. App keys and the
 * server's own work administer applications, never the organization's people.
 */
export function administersOrganizationOf(actor: Actor): boolean {
  return actor.userId !== null && actor.organizationAdmin;
}

/** Refuses the admin API to a caller who is not an administrator of the organization (10005 / 600320). */
export function requireOrganizationAdministrator(actor: Actor): void {
  if (!administersOrganizationOf(actor)) throw forbidden(actor, 'only an administrator of the organization may use the admin API; app keys cannot');
}
