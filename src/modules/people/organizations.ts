import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { firstOrganization, isOrganizationAdmin, organizationExists } from './repository.js';
import type { PeopleContext } from './people-context.js';

/**
 * The organization a CLI command acts in: the one named (`--org`), or the first one created.
 * @example const pc = await organizationContext(db, options.org, Date.now())
 */
export async function organizationContext(db: Executor, organizationId: string | undefined, now: number): Promise<PeopleContext> {
  if (organizationId !== undefined) {
    if (!(await organizationExists(db, organizationId))) throw AppError.notFound(`no organization "${organizationId}"`);
    return { db, organizationId, now };
  }
  const first = await firstOrganization(db);
  if (first === undefined) throw AppError.notFound('the database is not set up: run `tabularium setup` first');
  return { db, organizationId: first, now };
}

/**
 * Whether the person administers the organization (an active membership with is_admin): what a
 * strategy that recognises people puts in `Actor.organizationAdmin`.
 */
export async function administersOrganization(db: Executor, organizationId: string, accountId: string): Promise<boolean> {
  return isOrganizationAdmin(db, organizationId, accountId);
}
