import { AppError } from '../../shared/app-error.js';
import { activeMembers, findAccountByEmail } from './repository.js';
import type { PeopleContext } from './people-context.js';

/**
 * The account ids of people named by id or by email (an entry with an `@`), who must be active
 * members of the organization; 10002 naming `field` and the first unknown entry otherwise.
 * @example await memberIdsFor(pc, ['ada@example.org'], 'managers')
 */
export async function memberIdsFor(pc: PeopleContext, entries: readonly string[], field: string): Promise<string[]> {
  const ids: string[] = [];
  for (const entry of entries) {
    if (!entry.includes('@')) ids.push(entry);
    else {
      const account = await findAccountByEmail(pc.db, entry);
      if (!account) throw AppError.invalidValue(`${field}: no member with email "${entry}" in this organization`);
      ids.push(account.id);
    }
  }
  const unique = [...new Set(ids)];
  const active = await activeMembers(pc.db, pc.organizationId, unique);
  const missing = unique.find((id) => !active.has(id));
  if (missing !== undefined) throw AppError.invalidValue(`${field}: no active member "${entries[ids.indexOf(missing)]}" in this organization`);
  return unique;
}
