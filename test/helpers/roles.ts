import { expect } from 'vitest';
import type { ApiContext } from './api-harness.js';

/**
 * Makes a role in the first application (as its app key) with these people as members, asserting
 * each step; `body` is the public role body without its name.
 * @example await addRole(ctx, 'Own rows', { permissionScope: 0, worksheetPermissions: [{ id: sheetId, recordDataScope: { read: 20 } }] }, [adaId])
 */
export async function addRole(ctx: ApiContext, name: string, body: Record<string, unknown>, memberIds: string[]): Promise<string> {
  const made = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name, ...body });
  expect(made.body.error_msg).toBe('');
  expect((await ctx.call('POST', `/v3/app/roles/${made.body.data.id}/members`, { userIds: memberIds })).body.error_msg).toBe('');
  return made.body.data.id;
}
