import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newGuid } from '../../shared/ids.js';
import { existingDepartments } from './department-repository.js';
import { existingGroups, replaceAccountDepartments, replaceAccountGroups, type GroupKind } from './group-repository.js';
import { checkedEmail, checkedMobile } from './contact-details.js';
import { checkPasswordStrength, generatePassword, hashPassword } from './password.js';
import { within, type PeopleContext } from './people-context.js';
import * as repository from './repository.js';
import { viewsOf, type UserView } from './user-view.js';

/** People of an organization: accounts and their membership (the CLI's `users` and `/admin/users`). */

export interface UserInput {
  email: string;
  fullname: string;
  mobile?: string;
  avatar?: string;
  /** Left out: one is generated and returned once. */
  password?: string;
  isAdmin?: boolean;
  status?: 1 | 2;
  /** Department ids; the first is the primary one unless `primaryDepartment` says otherwise. */
  departments?: string[];
  primaryDepartment?: string;
  jobs?: string[];
  orgRoles?: string[];
}

function checkedName(fullname: string): string {
  const trimmed = fullname.trim();
  if (trimmed === '') throw AppError.invalidValue('fullname: a person needs a name');
  return trimmed;
}

/** The member's view, or 10007 when the account is not a member of the organization. */
export async function getUser(pc: PeopleContext, accountId: string): Promise<UserView> {
  const member = await repository.findMember(pc.db, pc.organizationId, accountId);
  if (!member) throw AppError.notFound(`no user "${accountId}" in this organization`);
  const [view] = await viewsOf(pc.db, pc.organizationId, [member]);
  return view!;
}

/** The member with this email, or 10007. */
export async function userByEmail(pc: PeopleContext, email: string): Promise<UserView> {
  const account = await repository.findAccountByEmail(pc.db, email);
  if (!account) throw AppError.notFound(`no user with email "${email}" in this organization`);
  return getUser(pc, account.id);
}

/** A page of the organization's people (1-based `pageIndex`), optionally those matching `search` in name, email or mobile. */
export async function listUsers(pc: PeopleContext, page: { search?: string; pageIndex?: number; pageSize?: number }): Promise<{ total: number; users: UserView[] }> {
  const pageSize = page.pageSize ?? 50;
  const pageIndex = page.pageIndex ?? 1;
  const { rows, total } = await repository.listMembers(pc.db, pc.organizationId, { search: (page.search ?? '').trim().toLowerCase(), offset: (pageIndex - 1) * pageSize, limit: pageSize });
  return { total, users: await viewsOf(pc.db, pc.organizationId, rows) };
}

/**
 * A new person in the organization. An email already known elsewhere in the instance joins that
 * account to this organization (a person may belong to several; their name and password stay);
 * one already a member here is refused (10006). The password, when generated, is returned this
 * once and never stored in clear.
 */
export async function createUser(pc: PeopleContext, input: UserInput): Promise<{ user: UserView; password?: string }> {
  const email = checkedEmail(input.email);
  const fullname = checkedName(input.fullname);
  const mobile = checkedMobile(input.mobile ?? '');
  if (input.password !== undefined) checkPasswordStrength(input.password);
  const generated = input.password === undefined ? generatePassword() : undefined;
  // Hashed before the transaction: scrypt is slow on purpose, and no lock should wait for it.
  const passwordHash = await hashPassword(input.password ?? generated!);
  const { accountId, joined } = await inTransaction(pc.db, async (trx) => {
    const known = await repository.findAccountByEmail(trx, email);
    if (known && (await repository.findMember(trx, pc.organizationId, known.id))) throw AppError.alreadyExists(`email: a user with email "${email}" exists already`);
    const id = known?.id ?? newGuid();
    if (!known) await repository.insertAccount(trx, { id, homeOrganizationId: pc.organizationId, email, fullname, mobile, passwordHash, now: pc.now });
    await repository.addMembership(trx, pc.organizationId, id, input.isAdmin === true, pc.now);
    if (input.status === 2) await repository.updateMembership(trx, pc.organizationId, id, { status: 2 });
    await setGroups(within(pc, trx), id, input);
    return { accountId: id, joined: known !== undefined };
  });
  const user = await getUser(pc, accountId);
  return joined || generated === undefined ? { user } : { user, password: generated };
}

/** Changes what is given: profile, email, status (2 disables in this organization), the admin flag, departments, jobs, roles. */
export async function editUser(pc: PeopleContext, accountId: string, input: Partial<Omit<UserInput, 'password'>>): Promise<UserView> {
  await inTransaction(pc.db, async (trx) => {
    const member = await repository.findMember(trx, pc.organizationId, accountId);
    if (!member) throw AppError.notFound(`no user "${accountId}" in this organization`);
    const email = input.email === undefined ? undefined : checkedEmail(input.email);
    if (email !== undefined && email !== member.email) {
      const holder = await repository.findAccountByEmail(trx, email);
      if (holder && holder.id !== accountId) throw AppError.alreadyExists(`email: a user with email "${email}" exists already`);
    }
    const losesAdmin = member.isAdmin && member.status === 1 && (input.isAdmin === false || input.status === 2);
    if (losesAdmin && (await repository.countActiveAdmins(trx, pc.organizationId)) <= 1) {
      throw AppError.invalidValue(`"${member.email}" is the last active administrator of the organization; make another person an administrator first`);
    }
    await repository.updateAccount(
      trx,
      accountId,
      {
        email,
        fullname: input.fullname === undefined ? undefined : checkedName(input.fullname),
        mobile: input.mobile === undefined ? undefined : checkedMobile(input.mobile),
        avatar: input.avatar,
      },
      pc.now,
    );
    await repository.updateMembership(trx, pc.organizationId, accountId, { isAdmin: input.isAdmin, status: input.status });
    await setGroups(within(pc, trx), accountId, input);
  });
  return getUser(pc, accountId);
}

/** A new password for a member: the one given (at least 8 characters) or a generated one, returned this once. */
export async function resetPassword(pc: PeopleContext, accountId: string, password?: string): Promise<{ accountId: string; password?: string }> {
  if (password !== undefined) checkPasswordStrength(password);
  const member = await repository.findMember(pc.db, pc.organizationId, accountId);
  if (!member) throw AppError.notFound(`no user "${accountId}" in this organization`);
  const generated = password === undefined ? generatePassword() : undefined;
  await repository.updateAccount(pc.db, accountId, { passwordHash: await hashPassword(password ?? generated!) }, pc.now);
  return generated === undefined ? { accountId } : { accountId, password: generated };
}

const GROUP_FIELDS: ReadonlyArray<[GroupKind, 'jobs' | 'orgRoles', string]> = [
  ['job', 'jobs', 'job'],
  ['orgRole', 'orgRoles', 'organization role'],
];

/** Sets the departments, jobs and roles given (each list replaces the person's list of that kind in this organization). */
async function setGroups(pc: PeopleContext, accountId: string, input: Partial<UserInput>): Promise<void> {
  if (input.departments !== undefined || input.primaryDepartment !== undefined) {
    const ids = [...new Set([...(input.departments ?? []), ...(input.primaryDepartment ? [input.primaryDepartment] : [])])];
    const known = await existingDepartments(pc.db, pc.organizationId, ids);
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw AppError.invalidValue(`departments: no department "${unknown}" in this organization`);
    const primary = input.primaryDepartment ?? ids[0];
    await replaceAccountDepartments(pc.db, pc.organizationId, accountId, ids.map((id) => ({ id, isPrimary: id === primary })));
  }
  for (const [kind, field, noun] of GROUP_FIELDS) {
    const ids = input[field];
    if (ids === undefined) continue;
    const unique = [...new Set(ids)];
    const known = await existingGroups(pc.db, kind, pc.organizationId, unique);
    const unknown = unique.find((id) => !known.has(id));
    if (unknown !== undefined) throw AppError.invalidValue(`${field}: no ${noun} "${unknown}" in this organization`);
    await replaceAccountGroups(pc.db, kind, pc.organizationId, accountId, unique);
  }
}

/** `tabularium users disable --email`: disables the person in the organization. */
export async function disableUserByEmail(pc: PeopleContext, email: string): Promise<UserView> {
  return editUser(pc, (await userByEmail(pc, email)).accountId, { status: 2 });
}

/** `tabularium users reset-password --email`: as `resetPassword`, finding the person by email. */
export async function resetPasswordByEmail(pc: PeopleContext, email: string, password?: string): Promise<{ accountId: string; password?: string }> {
  return resetPassword(pc, (await userByEmail(pc, email)).accountId, password);
}
