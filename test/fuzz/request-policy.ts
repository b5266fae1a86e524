import type { FuzzRequest, PathId } from './fuzz-request.js';
import { PROTECTED_POOLS, Ref, STAND_IN_POOL } from './wire-value.js';

/**
 * Which fuzzed requests may legitimately change what the fixture check compares, and how they are
 * kept off it. Everything here decides by method and path template, so a new route is covered by
 * the safe default: it may change what it names, so it never names the fixture.
 */

/** POSTs that only read or add records: they may name the fixture worksheet (adding a record to it is fine). */
const READ_OR_ADD_POST = /\/rows(\/batch|\/list)?$/;

/** Whether a request, if accepted, may change or delete what its path names. */
export function mayChange(method: string, template: string): boolean {
  if (method === 'GET') return false;
  return !(method === 'POST' && READ_OR_ADD_POST.test(template));
}

/**
 * Requests on the application itself (`POST /v3/app` renames it, `DELETE /v3/app` deletes it and
 * every worksheet): sent as the second application (fuzz-world.ts), never as the fixture's.
 */
export function isAppLevel(method: string, template: string): boolean {
  return template === '/v3/app' && method !== 'GET';
}

/**
 * Keeps a request that may change from naming the fixture in its path when it is sent with the
 * fixture application's own key: the fixture's ids become the scratch worksheet's. With any other
 * credentials (read-only key, the other application's key, none, wrong ones) the fixture's ids
 * stay: such a request must be refused, and if it is not, the fixture check says so.
 * Ids in the body are left alone: they must never reach a record of another worksheet.
 */
export function keepOffFixture(request: FuzzRequest): FuzzRequest {
  if (request.credentials !== 'own' || !mayChange(request.method, request.template)) return request;
  const pathIds = request.pathIds.map(([name, id]): [string, PathId] => {
    if ('raw' in id || !(id.value instanceof Ref) || !PROTECTED_POOLS.has(id.value.pool)) return [name, id];
    return [name, { ...id, value: new Ref(STAND_IN_POOL[id.value.pool]!, id.value.index) }];
  });
  return { ...request, pathIds };
}
