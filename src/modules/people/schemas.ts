import { Type, type TSchema } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';

/** Wire schemas of the admin API (`/admin/…`): people, departments, jobs and organization roles. */

const Status = Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 active, 2 disabled in this organization' });
const Ids = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

export const UserParams = Type.Object({ account_id: Type.String() });
export const DepartmentParams = Type.Object({ department_id: Type.String() });
export const GroupParams = Type.Object({ id: Type.String() });

export const ListUsersQuery = Type.Object({
  search: Type.Optional(Type.String({ description: 'Part of the name, email or mobile' })),
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});

const Memberships = {
  departments: Type.Optional(Ids('Department ids (the whole list: replaces the person\'s departments)')),
  primaryDepartment: Type.Optional(Type.String({ description: 'Default: the first of departments' })),
  jobs: Type.Optional(Ids('Job ids (the whole list)')),
  orgRoles: Type.Optional(Ids('Organization role ids (the whole list)')),
};

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 1 }),
    fullname: Type.String({ minLength: 1 }),
    mobile: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
    password: Type.Optional(Type.String({ description: 'At least 8 characters; left out, one is generated and answered once' })),
    isAdmin: Type.Optional(LenientBoolean({ description: 'Administers the organization (default false)' })),
    ...Memberships,
  },
  { additionalProperties: false },
);

export const EditUserBody = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 1 })),
    fullname: Type.Optional(Type.String({ minLength: 1 })),
    mobile: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
    status: Type.Optional(Status),
    isAdmin: Type.Optional(LenientBoolean()),
    ...Memberships,
  },
  { additionalProperties: false },
);

export const ResetPasswordBody = Type.Object({ password: Type.Optional(Type.String({ description: 'Left out, one is generated and answered once' })) }, { additionalProperties: false });

const Group = Type.Object({ id: Type.String(), name: Type.String() });

export const UserOut = Type.Object({
  accountId: Type.String(),
  email: Type.String(),
  fullname: Type.String(),
  mobile: Type.String(),
  avatar: Type.String(),
  status: Type.Integer(),
  isAdmin: Type.Boolean(),
  departments: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), path: Type.String(), isPrimary: Type.Boolean() })),
  jobs: Type.Array(Group),
  orgRoles: Type.Array(Group),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const UsersPage = Type.Object({ total: Type.Integer(), users: Type.Array(UserOut) });
export const CreatedUser = Type.Object({ user: UserOut, password: Type.Optional(Type.String()) });
export const PasswordOut = Type.Object({ accountId: Type.String(), password: Type.Optional(Type.String()) });

const DepartmentFields = {
  name: Type.String({ minLength: 1 }),
  parentId: Type.Optional(Type.Union([Type.Null(), Type.String()], { description: 'null or left out: at the top' })),
  managers: Type.Optional(Ids('Account ids or emails of members (the whole list)')),
  position: Type.Optional(Type.Integer({ description: 'Order among its siblings' })),
};

export const CreateDepartmentBody = Type.Object(DepartmentFields, { additionalProperties: false });
export const EditDepartmentBody = Type.Partial(Type.Object(DepartmentFields), { additionalProperties: false });

export const DepartmentOut: TSchema = Type.Recursive((self) =>
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()]),
    path: Type.String({ description: 'Names from the top, separated by /' }),
    position: Type.Integer(),
    managers: Type.Array(Type.String(), { description: 'Account ids' }),
    children: Type.Array(self),
  }),
);

export const GroupBody = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
export const GroupOut = Group;
