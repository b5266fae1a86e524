import { describe, expect, it } from 'vitest';
import type { FilterScope } from '../../src/query/index.js';
import {
  administratorGrants,
  appKeyActor,
  dataScopeOf,
  FULL_WORKSHEET,
  hasWorksheetRight,
  NO_WORKSHEET,
  requireAdministrator,
  requireFieldWrite,
  requireScope,
  requireWorksheetRight,
  rowsFor,
  scopeNamed,
  seesField,
  systemActor,
  worksheetGrant,
  type Grants,
  type WorksheetGrant,
} from '../../src/access/index.js';
import type { Actor } from '../../src/shared/actor.js';
import { AppError } from '../../src/shared/app-error.js';

/** The policy module: pure answers from an actor's scopes and grants, and the data scope compiled into SQL. */

const SHEET = { id: 'ws1', name: 'Orders' };

function person(kind: Actor['kind'], grant: Partial<WorksheetGrant>, scopes: string[] | null = null, extra: Partial<Grants> = {}): Actor {
  const grants: Grants = { administrator: false, readOnly: false, worksheets: new Map([[SHEET.id, { ...NO_WORKSHEET, ...grant }]]), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: null, chatbots: null, ...extra };
  return { kind, appId: 'app1', organizationId: 'org1', userId: 'u-ada', accountId: 'u-ada', credentialId: 'c1', scopes: scopes ? new Set(scopes) : null, grants, organizationAdmin: false };
}

function refusal(run: () => void): { code: number; status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.httpStatus, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('access policy', () => {
  it('gives an app key every right, and a read-only key reading only', () => {
    const key = appKeyActor({ keyId: 'k', appId: 'app1', organizationId: 'org1', readOnly: false });
    expect(key).toMatchObject({ kind: 'appKey', accountId: 'user-api', userId: null, scopes: null });
    expect(worksheetGrant(key, 'any')).toBe(FULL_WORKSHEET);
    const readOnly = appKeyActor({ keyId: 'k', appId: 'app1', organizationId: 'org1', readOnly: true });
    expect(hasWorksheetRight(readOnly, 'any', 'read')).toBe(true);
    expect(hasWorksheetRight(readOnly, 'any', 'add')).toBe(false);
    expect(refusal(() => requireWorksheetRight(readOnly, SHEET, 'edit'))).toEqual({ code: 10005, status: 403, message: 'this key is read-only and cannot change data' });
    expect(systemActor({ job: 'sweep', appId: 'a', organizationId: 'o', accountId: 'user-undefined', writes: true }).grants).toEqual(administratorGrants(false));
  });

  it('narrows a token to its scopes (10005) and an OAuth grant too (600320)', () => {
    const token = person('token', {}, ['record:list']);
    expect(() => requireScope(token, 'record:list')).not.toThrow();
    expect(refusal(() => requireScope(token, 'record:create'))).toEqual({ code: 10005, status: 403, message: 'this credential was not given the scope record:create' });
    expect(refusal(() => requireScope(person('oauth', {}, []), 'record:list')).code).toBe(600320);
    expect(() => requireScope(person('session', {}), 'role:create')).not.toThrow();
  });

  it('answers rights per worksheet from the grant, a worksheet not granted being out of reach', () => {
    const member = person('session', { read: 'own', edit: 'own', add: true });
    expect(hasWorksheetRight(member, SHEET.id, 'read')).toBe(true);
    expect(hasWorksheetRight(member, SHEET.id, 'delete')).toBe(false);
    expect(refusal(() => requireWorksheetRight(member, SHEET, 'delete'))).toMatchObject({ code: 10005, message: 'you may not delete records of the worksheet "Orders"' });
    expect(hasWorksheetRight(member, 'other', 'read')).toBe(false);
    expect(dataScopeOf(member, SHEET.id, 'edit')).toBe('own');
    expect(refusal(() => requireAdministrator(member, 'change its structure')).message).toBe('only an administrator of the application may change its structure');
  });

  it('hides fields and refuses writes to hidden and read-only ones with 430014', () => {
    const member = person('session', { read: 'all', edit: 'all', hiddenFields: new Set(['salary']), readOnlyFields: new Set(['status']) });
    expect(seesField(member, SHEET.id, 'salary')).toBe(false);
    expect(seesField(member, SHEET.id, 'status')).toBe(true);
    expect(refusal(() => requireFieldWrite(member, SHEET.id, { id: 'status', name: 'Status' }))).toEqual({ code: 430014, status: 403, message: 'you may not write the field "Status"' });
    expect(refusal(() => requireFieldWrite(member, SHEET.id, { id: 'salary', name: 'Salary' })).code).toBe(430014);
    expect(() => requireFieldWrite(member, SHEET.id, { id: 'title', name: 'Title' })).not.toThrow();
  });

  it('knows the public scope names and their numeric codes', () => {
    expect(scopeNamed('record:list')).toBe('record:list');
    expect(scopeNamed(30500)).toBe('record:list');
    expect(scopeNamed('31100')).toBe('record:get_pivot');
    expect(scopeNamed('record:lists')).toBeUndefined();
    expect(scopeNamed('toString')).toBeUndefined();
  });
});

describe('rows for a right', () => {
  const scope = { schema: { id: SHEET.id, name: SHEET.name, fields: [] }, now: 0, timeZone: 'UTC', selfAccountId: 'u-ada' } as unknown as FilterScope;

  it('lets an administrator through to every row, and refuses a right that reaches nothing', () => {
    expect(rowsFor(appKeyActor({ keyId: 'k', appId: 'app1', organizationId: 'org1', readOnly: false }), scope, 'read').everyRow).toBe(true);
    const member = person('session', { read: 'subordinates', edit: 'own', delete: 'none' }, null, { subordinateAccounts: ['u-bo'] });
    expect(refusal(() => rowsFor(member, scope, 'delete'))).toMatchObject({ code: 10005, message: 'you may not delete records of the worksheet "Orders"' });
  });
});
