/** People of organizations: accounts, memberships, departments, jobs and roles; the CLI's and the admin API's services. */
export { checkPasswordStrength, generatePassword, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './password.js';
export type { PeopleContext } from './people-context.js';
export { administersOrganization, organizationContext } from './organizations.js';
export { createUser, disableUserByEmail, editUser, getUser, listUsers, resetPassword, resetPasswordByEmail, userByEmail, type UserInput } from './users.js';
export type { UserView } from './user-view.js';
export { createDepartment, deleteDepartment, departmentTree, editDepartment, getDepartment, type DepartmentInput } from './departments.js';
export type { DepartmentNode } from './department-tree.js';
export { createGroup, deleteGroup, listGroups, renameGroup, type GroupKind, type GroupRow } from './groups.js';
export { importOrganization, type ImportReport } from './org-import.js';
export { activeAccountEmails, activeMemberEmails, activeMembers } from './repository.js';
export { existingDepartments } from './department-repository.js';
export { existingGroups } from './group-repository.js';
export { accountsInGroups, departmentManagersOf, type PeopleGroups } from './member-accounts.js';
export { peopleRoutes } from './routes.js';
export { departmentsNamed, membersNamed, organizationById, organizationMembership, organizationsOf, profileOf, type FoundMember, type LocatedDepartment } from './directory.js';
export { maskedEmail, maskedMobile } from './masking.js';
