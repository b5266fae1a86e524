import type { ScopeName } from './scopes.js';

/**
 * What a route declares it needs: nothing (`'public'`), or a scope of the public interface and
 * whether the call reads or changes data. The authentication hook checks both before the handler
 * runs: a credential without the scope is refused (10005; 600320 through OAuth), so is a
 * read-only credential on a route that writes, and a caller that does not administer the
 * application on a route that changes its structure (`administer`). The admin API (`/admin/…`)
 * is for a person who administers the organization (`organization`), under our own scope
 * `admin:organization` (the public interface has none for it). Rights on worksheets, records
 * and fields depend on the data, and are checked by the services.
 * @example app.get('/app', { config: { access: reads('app:get') }, … })
 */
export type RouteAccess = 'public' | { scope: ScopeName; right: 'read' | 'write' | 'administer' | 'organization' };

/** A route that reads, under `scope`. */
export function reads(scope: ScopeName): RouteAccess {
  return { scope, right: 'read' };
}

/** A route that changes data, under `scope`. */
export function writes(scope: ScopeName): RouteAccess {
  return { scope, right: 'write' };
}

/** A route that changes the application's structure (worksheets, views, charts, pages, option sets, rules): administrators only. */
export function administers(scope: ScopeName): RouteAccess {
  return { scope, right: 'administer' };
}

/**
 * A route of the admin API (`/admin/…`, people and departments of the caller's organization):
 * only a person who administers the organization; app keys are refused (10005).
 */
export function administersOrganization(): RouteAccess {
  return { scope: 'admin:organization', right: 'organization' };
}
