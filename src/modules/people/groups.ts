import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import * as repository from './group-repository.js';
import type { PeopleContext } from './people-context.js';

/**
 * Jobs and organization roles: named sets of people in an organization (`/admin/jobs`,
 * `/admin/org-roles`). People join them through their user (`departments`, `jobs`, `orgRoles`).
 */

export type { GroupKind, GroupRow } from './group-repository.js';

const NOUNS: Record<repository.GroupKind, string> = { job: 'job', orgRole: 'organization role' };

function checkedName(kind: repository.GroupKind, name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw AppError.invalidValue(`name: a ${NOUNS[kind]} needs a name`);
  return trimmed;
}

export async function listGroups(pc: PeopleContext, kind: repository.GroupKind): Promise<repository.GroupRow[]> {
  return repository.listGroups(pc.db, kind, pc.organizationId);
}

/** A new job or role; its name is unique in the organization (10006). */
export async function createGroup(pc: PeopleContext, kind: repository.GroupKind, name: string): Promise<repository.GroupRow> {
  const checked = checkedName(kind, name);
  return inTransaction(pc.db, async (trx) => {
    if (await repository.findGroupByName(trx, kind, pc.organizationId, checked)) throw AppError.alreadyExists(`name: a ${NOUNS[kind]} "${checked}" exists already`);
    const id = newObjectId();
    await repository.insertGroup(trx, kind, { id, organizationId: pc.organizationId, name: checked, now: pc.now });
    return { id, name: checked };
  });
}

export async function renameGroup(pc: PeopleContext, kind: repository.GroupKind, id: string, name: string): Promise<repository.GroupRow> {
  const checked = checkedName(kind, name);
  return inTransaction(pc.db, async (trx) => {
    if (!(await repository.findGroup(trx, kind, pc.organizationId, id))) throw AppError.notFound(`no ${NOUNS[kind]} "${id}" in this organization`);
    const clash = await repository.findGroupByName(trx, kind, pc.organizationId, checked);
    if (clash && clash.id !== id) throw AppError.alreadyExists(`name: a ${NOUNS[kind]} "${checked}" exists already`);
    await repository.renameGroup(trx, kind, id, checked);
    return { id, name: checked };
  });
}

/** Deletes a job or role; its people simply no longer hold it (nothing else refers to it yet). */
export async function deleteGroup(pc: PeopleContext, kind: repository.GroupKind, id: string): Promise<void> {
  await inTransaction(pc.db, async (trx) => {
    if (!(await repository.findGroup(trx, kind, pc.organizationId, id))) throw AppError.notFound(`no ${NOUNS[kind]} "${id}" in this organization`);
    await repository.deleteGroup(trx, kind, id);
  });
}
