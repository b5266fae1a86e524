import type { DataScopeCode, GlobalPermissions, PermissionScope, WorksheetPermission } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';

/**
 * A role's body as the public interface sends it, checked and normalised: numbers may come as
 * strings, flags left out take their defaults, and every key is named in the error it causes.
 * References (worksheets, views, fields, pages) are checked by the service against the application.
 */

export const ROLE_TYPES = { custom: 0, administrators: 100 } as const;
const PERMISSION_SCOPES: readonly number[] = [80, 60, 30, 20, 0];
const DATA_SCOPES: readonly number[] = [0, 20, 30, 100];
const MAX_NAME = 100;

/** Everything the public global permissions hold; the grants use addRecord, share, discuss and log. */
export interface StoredGlobalPermissions extends GlobalPermissions {
  import: boolean;
  export: boolean;
  systemPrint: boolean;
  attachmentDownload: boolean;
}

export interface StoredWorksheetPermission extends WorksheetPermission {
  worksheetActions: { shareView: boolean; import: boolean; export: boolean; discuss: boolean; batchOperation: boolean };
  recordActions: WorksheetPermission['recordActions'] & { systemPrint: boolean; attachmentDownload: boolean };
  paymentActions: { pay: boolean };
  fieldPermissions: Array<WorksheetPermission['fieldPermissions'][number] & { decrypt: boolean }>;
}

export interface NormalisedRole {
  name: string;
  description: string;
  roleType: number;
  permissionScope: PermissionScope;
  hideAppForMembers: boolean;
  globalPermissions: StoredGlobalPermissions;
  worksheetPermissions: StoredWorksheetPermission[];
  pagePermissions: Array<{ id: string; enable: boolean }>;
  chatbotPermissions: Array<{ id: string; enable: boolean }>;
}

type Loose = Record<string, unknown>;

/** `[{id, enable}]` lists that switch items of one kind on for a scope-0 role (pages, chatbots). */
function itemSwitches(value: unknown, key: string): Array<{ id: string; enable: boolean }> {
  return listOf(value, key).map((p, i) => {
    if (!isObject(p)) throw AppError.invalidValue(`${key}[${i}]: must be an object`);
    return { id: idAt(p.id, `${key}[${i}].id`), enable: flag(p.enable, `${key}[${i}].enable`, false) };
  });
}

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

function flag(value: unknown, key: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  throw AppError.invalidValue(`${key}: ${JSON.stringify(value)} is not true or false`);
}

function numberIn(value: unknown, key: string, allowed: readonly number[]): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !allowed.includes(n)) throw AppError.invalidValue(`${key}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  return n;
}

function listOf(value: unknown, key: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw AppError.invalidValue(`${key}: must be an array`);
  return value;
}

function objectAt(value: unknown, key: string): Loose {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw AppError.invalidValue(`${key}: must be an object`);
  return value;
}

function idAt(value: unknown, key: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw AppError.invalidParameters(`${key}: an id is required`);
  return value.trim();
}

function globalPermissions(value: unknown, scope: number): StoredGlobalPermissions {
  const g = objectAt(value, 'globalPermissions');
  const key = (name: string) => `globalPermissions.${name}`;
  // A read-only role (20) adds nothing by default; every other role may add, share, discuss and read logs.
  return {
    addRecord: flag(g.addRecord, key('addRecord'), scope !== 20),
    share: flag(g.share, key('share'), true),
    import: flag(g.import, key('import'), false),
    export: flag(g.export, key('export'), true),
    discuss: flag(g.discuss, key('discuss'), true),
    systemPrint: flag(g.systemPrint, key('systemPrint'), true),
    attachmentDownload: flag(g.attachmentDownload, key('attachmentDownload'), true),
    log: flag(g.log, key('log'), true),
  };
}

function worksheetPermission(value: unknown, at: string): StoredWorksheetPermission {
  if (!isObject(value)) throw AppError.invalidValue(`${at}: must be an object`);
  const scope = objectAt(value.recordDataScope, `${at}.recordDataScope`);
  const dataScope = (right: string) => numberIn(scope[right] ?? 0, `${at}.recordDataScope.${right}`, DATA_SCOPES) as DataScopeCode;
  const wa = objectAt(value.worksheetActions, `${at}.worksheetActions`);
  const ra = objectAt(value.recordActions, `${at}.recordActions`);
  const f = (o: Loose, name: string, prefix: string, fallback: boolean) => flag(o[name], `${at}.${prefix}.${name}`, fallback);
  return {
    id: idAt(value.id, `${at}.id`),
    recordPermissionInViews: listOf(value.recordPermissionInViews, `${at}.recordPermissionInViews`).map((v, i) => {
      const key = `${at}.recordPermissionInViews[${i}]`;
      if (!isObject(v)) throw AppError.invalidValue(`${key}: must be an object`);
      return { viewId: idAt(v.viewId, `${key}.viewId`), read: flag(v.read, `${key}.read`, false), edit: flag(v.edit, `${key}.edit`, false), delete: flag(v.delete, `${key}.delete`, false) };
    }),
    recordDataScope: { read: dataScope('read'), edit: dataScope('edit'), delete: dataScope('delete') },
    worksheetActions: { shareView: f(wa, 'shareView', 'worksheetActions', false), import: f(wa, 'import', 'worksheetActions', false), export: f(wa, 'export', 'worksheetActions', false), discuss: f(wa, 'discuss', 'worksheetActions', true), batchOperation: f(wa, 'batchOperation', 'worksheetActions', false) },
    recordActions: {
      add: f(ra, 'add', 'recordActions', false),
      share: f(ra, 'share', 'recordActions', false),
      discuss: f(ra, 'discuss', 'recordActions', true),
      systemPrint: f(ra, 'systemPrint', 'recordActions', false),
      attachmentDownload: f(ra, 'attachmentDownload', 'recordActions', true),
      log: f(ra, 'log', 'recordActions', true),
    },
    paymentActions: { pay: flag(objectAt(value.paymentActions, `${at}.paymentActions`).pay, `${at}.paymentActions.pay`, false) },
    fieldPermissions: listOf(value.fieldPermissions, `${at}.fieldPermissions`).map((v, i) => {
      const key = `${at}.fieldPermissions[${i}]`;
      if (!isObject(v)) throw AppError.invalidValue(`${key}: must be an object`);
      const read = flag(v.read, `${key}.read`, true);
      return { id: idAt(v.id, `${key}.id`), read, edit: read && flag(v.edit, `${key}.edit`, true), add: read && flag(v.add, `${key}.add`, true), decrypt: flag(v.decrypt, `${key}.decrypt`, false) };
    }),
  };
}

/** Checks and normalises a role's body (10001 for what is missing, 10002 for a wrong value, naming the key). */
export function normaliseRole(body: Loose): NormalisedRole {
  if (typeof body.name !== 'string' || body.name.trim() === '') throw AppError.invalidParameters('name is required');
  const name = body.name.trim();
  if ([...name].length > MAX_NAME) throw AppError.invalidValue(`name: at most ${MAX_NAME} characters`);
  if (body.permissionScope === undefined || body.permissionScope === null) throw AppError.invalidParameters('permissionScope is required (80, 60, 30, 20 or 0)');
  const permissionScope = numberIn(body.permissionScope, 'permissionScope', PERMISSION_SCOPES) as PermissionScope;
  const roleType = numberIn(body.type ?? body.roleType ?? 0, 'type', Object.values(ROLE_TYPES));
  const worksheets = listOf(body.worksheetPermissions, 'worksheetPermissions').map((w, i) => worksheetPermission(w, `worksheetPermissions[${i}]`));
  const seen = new Set<string>();
  worksheets.forEach((w, i) => {
    if (seen.has(w.id)) throw AppError.invalidValue(`worksheetPermissions[${i}].id: worksheet "${w.id}" is listed twice`);
    seen.add(w.id);
  });
  return {
    name,
    description: typeof body.description === 'string' ? body.description : '',
    roleType,
    permissionScope,
    hideAppForMembers: flag(body.hideAppForMembers, 'hideAppForMembers', false),
    globalPermissions: globalPermissions(body.globalPermissions, permissionScope),
    worksheetPermissions: worksheets,
    pagePermissions: itemSwitches(body.pagePermissions, 'pagePermissions'),
    chatbotPermissions: itemSwitches(body.chatbotPermissions, 'chatbotPermissions'),
  };
}
