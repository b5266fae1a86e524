import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { PSEUDO_USERS } from '../../shared/actor.js';
import type { ResolvedReferences } from '../../fields/field-type.js';
import type { ReferenceSet } from './value-codec.js';
import { activeMembers, existingDepartments } from '../people/index.js';
import { regionsByIds } from '../regions/index.js';

/** How a region field's deepest level reads in messages. */
const LEVELS_TAKEN = ['', 'a province (level 1)', 'a province or city (levels 1–2)', 'a province, city or county (levels 1–3)'];

/**
 * Every written region code must name a region (migration 0018's table), no deeper than the field
 * it was written to takes: 10002 naming the field and the code.
 */
async function checkRegions(db: Executor, refs: ReferenceSet): Promise<void> {
  const regions = new Map((await regionsByIds(db, [...refs.region])).map((r) => [r.id, r]));
  for (const [code, { deepestLevel, label }] of refs.regionLevels) {
    const region = regions.get(code);
    if (!region) throw AppError.invalidValue(`${label}: no region with code "${code}"`);
    if (region.level > deepestLevel) throw AppError.invalidValue(`${label}: region "${code}" (${region.path}) is at level ${region.level}; this field takes ${LEVELS_TAKEN[deepestLevel]}`);
  }
}

/**
 * Every written member must be an active member of the caller's organization (with an active
 * account), and every department one of its departments: 10002 otherwise, naming the field that
 * wrote the first unknown id (or starting with `where` when given, e.g. `mentions: `). A person who
 * was disabled stays in the records that hold them, and reads as they are; they cannot be written
 * anew, including by an update that sends the field's whole list again. Every region code must name
 * a region the field takes.
 */
export async function checkReferencesExist(db: Executor, organizationId: string, refs: ReferenceSet, where = ''): Promise<void> {
  const fieldOf = (kind: string, id: string): string => {
    const label = refs.writtenIn?.get(`${kind}:${id}`);
    return where === '' && label !== undefined ? `${label}: ` : where;
  };
  if (refs.account.size > 0) {
    const ids = [...refs.account];
    const known = await activeMembers(db, organizationId, ids);
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) throw AppError.invalidValue(`${fieldOf('account', missing[0]!)}no active member with accountId ${missing.map((id) => `"${id}"`).join(', ')} in this organization`);
  }
  if (refs.department.size > 0) {
    const ids = [...refs.department];
    const known = await existingDepartments(db, organizationId, ids);
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) throw AppError.invalidValue(`${fieldOf('department', missing[0]!)}no department with id ${missing.map((id) => `"${id}"`).join(', ')} in this organization`);
  }
  if (refs.regionLevels.size > 0) await checkRegions(db, refs);
}

/** Names for the ids that rows refer to (members, departments, regions, creators), in one query per kind. */
export async function resolveReferences(db: Executor, refs: ReferenceSet): Promise<ResolvedReferences> {
  const resolved: ResolvedReferences = { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map() };
  const accountIds: string[] = [];
  for (const id of refs.account) {
    const pseudo = PSEUDO_USERS.get(id);
    if (pseudo) resolved.accounts.set(id, { fullname: pseudo, avatar: '', status: 1 });
    else accountIds.push(id);
  }
  if (accountIds.length > 0) {
    const rows = await db.selectFrom('accounts').select(['id', 'fullname', 'status']).where('id', 'in', accountIds).execute();
    for (const row of rows) resolved.accounts.set(row.id, { fullname: row.fullname, avatar: '', status: row.status });
  }
  if (refs.department.size > 0) {
    const rows = await db.selectFrom('departments').select(['id', 'name']).where('id', 'in', [...refs.department]).execute();
    for (const row of rows) resolved.departments.set(row.id, { name: row.name });
  }
  for (const region of await regionsByIds(db, [...refs.region])) resolved.regions.set(region.id, { name: region.name, path: region.path });
  return resolved;
}
