import { describe, expect, it } from 'vitest';
import { grantsFromRoles, reachesEveryRow, requireReadThroughView, seesChatbot, seesPage, type Grants, type RoleDefinition, type WorksheetPermission } from '../../src/access/index.js';
import { keptRows } from '../../src/access/kept-reach.js';
import { EVERY_ROW, type FilterScope } from '../../src/query/index.js';
import type { Actor } from '../../src/shared/actor.js';

/** A person's grants from their roles, as pure functions: rights through views added up, and pages. */

const GLOBAL = { addRecord: true, share: true, discuss: true, log: true };
const SHEET = { id: 'ws1', name: 'Deals' };

function scoped(views: Array<[string, string]>, scope: { read: 0 | 20 | 30 | 100; edit?: 0 | 20 | 30 | 100; delete?: 0 | 20 | 30 | 100 }): WorksheetPermission {
  return {
    id: SHEET.id,
    recordPermissionInViews: views.map(([viewId, rights]) => ({ viewId, read: rights.includes('read'), edit: rights.includes('edit'), delete: rights.includes('delete') })),
    recordDataScope: { read: scope.read, edit: scope.edit ?? 0, delete: scope.delete ?? 0 },
    recordActions: { add: false, share: false, discuss: false, log: false },
    fieldPermissions: [],
  };
}

const role = (permissionScope: RoleDefinition['permissionScope'], worksheetPermissions: WorksheetPermission[] = [], pagePermissions: RoleDefinition['pagePermissions'] = [], chatbotPermissions: RoleDefinition['chatbotPermissions'] = []): RoleDefinition => ({ permissionScope, globalPermissions: GLOBAL, worksheetPermissions, pagePermissions, chatbotPermissions });

const FILTERS = new Map<string, unknown>([
  ['open', { type: 'condition', field: 'status', operator: 'eq', value: 'open' }],
  ['large', { type: 'condition', field: 'amount', operator: 'ge', value: 1000 }],
]);

function actorWith(grants: Grants): Actor {
  return { kind: 'token', appId: 'app1', organizationId: 'org1', userId: 'u', accountId: 'u', credentialId: 'c', scopes: null, grants, organizationAdmin: false };
}

describe('grants from roles', () => {
  it('limits a scope-0 role’s rights to its views, each right to the views that give it', () => {
    const grant = grantsFromRoles([role(0, [scoped([['open', 'read+edit'], ['large', 'read']], { read: 100, edit: 20 })])], [], FILTERS).worksheets.get(SHEET.id)!;
    expect(grant).toMatchObject({ read: 'all', edit: 'own', delete: 'none' });
    expect(grant.throughViews?.read).toEqual([{ scope: 'all', views: ['open', 'large'] }]);
    expect(grant.throughViews?.edit).toEqual([{ scope: 'own', views: ['open'] }]);
    expect([...grant.viewFilters!.keys()]).toEqual(['open', 'large']);
  });

  it('adds up roles: the union of their reaches, a whole data scope holding the narrower reaches through views', () => {
    const twoViews = grantsFromRoles([role(0, [scoped([['open', 'read']], { read: 100 })]), role(0, [scoped([['large', 'read']], { read: 20 })])], [], FILTERS).worksheets.get(SHEET.id)!;
    expect(twoViews.throughViews?.read).toEqual([{ scope: 'all', views: ['open'] }, { scope: 'own', views: ['large'] }]);
    // A role reading every record (scope 60) holds the views of the other: nothing left to limit.
    const wide = grantsFromRoles([role(0, [scoped([['open', 'read+edit']], { read: 100, edit: 100 })]), role(60)], [], FILTERS).worksheets.get(SHEET.id)!;
    expect(wide).toMatchObject({ read: 'all', edit: 'all' });
    expect(wide.throughViews).toEqual({ edit: [{ scope: 'own', views: null }, { scope: 'all', views: ['open'] }] });
    expect(reachesEveryRow(actorWith(grantsFromRoles([role(0, [scoped([['open', 'read']], { read: 100 })]), role(60)], [], FILTERS)), SHEET.id, 'read')).toBe(true);
  });

  it('reads through a view only when the right comes through it (10005 naming the view)', () => {
    const actor = actorWith(grantsFromRoles([role(0, [scoped([['open', 'read']], { read: 100 })])], [], FILTERS));
    expect(() => requireReadThroughView(actor, SHEET, { id: 'open', name: 'Open' })).not.toThrow();
    expect(() => requireReadThroughView(actor, SHEET, { id: 'large', name: 'Large' })).toThrow('you may not read records of the worksheet "Deals" through the view "Large"');
    const reader = actorWith(grantsFromRoles([role(20)], [], FILTERS));
    expect(() => requireReadThroughView(reader, SHEET, { id: 'large', name: 'Large' })).not.toThrow();
  });

  it('shows the pages scope-0 roles enable, and every page to a role of a wider scope', () => {
    const paged = actorWith(grantsFromRoles([role(0, [], [{ id: 'p1', enable: true }, { id: 'p2', enable: false }])], [], FILTERS));
    expect([seesPage(paged, 'p1'), seesPage(paged, 'p2')]).toEqual([true, false]);
    const wider = actorWith(grantsFromRoles([role(0, [], [{ id: 'p1', enable: true }]), role(30)], [], FILTERS));
    expect([seesPage(wider, 'p1'), seesPage(wider, 'p2')]).toEqual([true, true]);
  });

  it('shows the chatbots scope-0 roles enable, and every chatbot to a role of a wider scope', () => {
    const listed = actorWith(grantsFromRoles([role(0, [], [], [{ id: 'b1', enable: true }, { id: 'b2', enable: false }]), role(0, [], [], [{ id: 'b3', enable: true }])], [], FILTERS));
    expect([seesChatbot(listed, 'b1'), seesChatbot(listed, 'b2'), seesChatbot(listed, 'b3')]).toEqual([true, false, true]);
    const wider = actorWith(grantsFromRoles([role(0), role(20)], [], FILTERS));
    expect(seesChatbot(wider, 'b2')).toBe(true);
  });
});

describe('compiled reaches kept with the grant', () => {
  const grant = grantsFromRoles([role(60)], [], FILTERS).otherWorksheets;
  const schema = { id: SHEET.id } as FilterScope['schema'];
  const at = (now: number, over: Partial<FilterScope> = {}) => ({ schema, now, timeZone: 'Asia/Shanghai', ...over }) as FilterScope;

  it('compiles once per grant, schema, caller and day in the time zone', () => {
    let compiled = 0;
    const compile = () => {
      compiled++;
      return EVERY_ROW;
    };
    // 2024-03-01 10:00 and 23:30 in Shanghai, then 00:30 the day after.
    const morning = Date.UTC(2024, 2, 1, 2, 0);
    keptRows(grant, at(morning), 'read\u0000u', compile);
    keptRows(grant, at(morning + 13.5 * 3_600_000), 'read\u0000u', compile);
    expect(compiled).toBe(1);
    keptRows(grant, at(morning + 14.5 * 3_600_000), 'read\u0000u', compile);
    expect(compiled).toBe(2);
    keptRows(grant, at(morning, { schema: { id: SHEET.id } as FilterScope['schema'] }), 'read\u0000u', compile);
    keptRows(grant, at(morning), 'edit\u0000u', compile);
    keptRows(grant, at(morning, { timeZone: 'UTC' }), 'read\u0000u', compile);
    expect(compiled).toBe(5);
  });
});
