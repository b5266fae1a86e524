import { Type } from '@sinclair/typebox';

/** Wire schemas of the role endpoints; the permission body is checked by `role-input.ts` (named errors). */

export const RoleParams = Type.Object({ role_id: Type.String({ description: 'Role id' }) });
export const UserParams = Type.Object({ user_id: Type.String({ description: "The person's account id" }) });

export const RoleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Required' })),
    description: Type.Optional(Type.String()),
    type: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: '0 custom role (default); 100 the administrators of the application' })),
    permissionScope: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'Required: 80 all records; 60 read all, change own; 30 read joined, change own; 20 read only; 0 per worksheet' })),
    hideAppForMembers: Type.Optional(Type.Unknown()),
    globalPermissions: Type.Optional(Type.Unknown({ description: 'For scopes above 0: addRecord, share, import, export, discuss, systemPrint, attachmentDownload, log' })),
    worksheetPermissions: Type.Optional(Type.Unknown({ description: 'For scope 0: per worksheet, recordPermissionInViews, recordDataScope, recordActions, fieldPermissions, …' })),
    pagePermissions: Type.Optional(Type.Unknown({ description: 'For scope 0: [{id, enable}]' })),
    chatbotPermissions: Type.Optional(Type.Unknown({ description: 'For scope 0: [{id, enable}], the chatbots its members may see and talk to' })),
  },
  { additionalProperties: true },
);

const ids = Type.Optional(Type.Array(Type.String()));
export const MembersBody = Type.Object(
  { userIds: ids, accountIds: ids, departmentIds: ids, departmentTreeIds: ids, jobIds: ids, orgRoleIds: ids, operatorId: Type.Optional(Type.String({ description: 'Accepted and ignored: the caller is the operator' })) },
  { additionalProperties: true },
);

const Named = Type.Object({ id: Type.String(), name: Type.String() });
const Members = {
  accounts: Type.Array(Type.Object({ accountId: Type.String(), fullname: Type.String(), avatar: Type.String() })),
  departments: Type.Array(Named),
  departmentTrees: Type.Array(Named),
  jobs: Type.Array(Named),
  orgRoleIds: Type.Array(Type.String()),
};

export const RoleList = Type.Object({ roles: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), roleType: Type.String(), description: Type.String(), ...Members })) });

export const CreatedRole = Type.Object({
  id: Type.String(),
  name: Type.String(),
  roleType: Type.Integer(),
  desc: Type.String(),
  users: Type.Array(Type.Unknown()),
  departments: Type.Array(Type.Unknown()),
  departmentTrees: Type.Array(Type.Unknown()),
  projectOrganizes: Type.Array(Type.Unknown()),
  jobs: Type.Array(Type.Unknown()),
});

export const RoleDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    permissionScope: Type.Integer(),
    type: Type.Integer(),
    hideAppForMembers: Type.Boolean(),
    globalPermissions: Type.Optional(Type.Unknown()),
    worksheetPermissions: Type.Optional(Type.Unknown()),
    pagePermissions: Type.Optional(Type.Unknown()),
    chatbotPermissions: Type.Optional(Type.Unknown()),
    ...Members,
  },
);
