import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';
import { AppFields } from '../apps/index.js';

/** Wire schemas of the user's own view and the lookups. */

const orgSelector = {
  orgId: Type.Optional(Type.String({ description: 'The organization to act in (default: the caller’s home organization)' })),
  org_id: Type.Optional(Type.String({ description: 'Same as orgId' })),
};

export const OrganizationQuery = Type.Object(orgSelector);

export const LookupQuery = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, description: 'The exact name (case-sensitive)' }), ...orgSelector });

const PathNode = Type.Object({ id: Type.String(), name: Type.String() });

const LocatedDepartment = Type.Object({
  id: Type.String(),
  name: Type.String(),
  path: Type.String({ description: 'The departments above it, top first, joined with "/" ("" at the top)' }),
  pathNodes: Type.Array(PathNode),
});

export const OrganizationsOut = Type.Object({
  orgs: Type.Array(Type.Object({ orgId: Type.String(), name: Type.String(), isAdmin: Type.Boolean(), isDefault: Type.Boolean() })),
});

export const MeOut = Type.Object({
  accountId: Type.String(),
  fullname: Type.String(),
  email: Type.String(),
  mobile: Type.String(),
  avatar: Type.String(),
  orgId: Type.String(),
  departments: Type.Array(LocatedDepartment),
});

const AppSummary = Type.Object({ ...AppFields, isOwner: Type.Boolean() });

export const AppsOut = Type.Object({ apps: Type.Array(AppSummary) });

export const CreateAppBody = Type.Object({
  ...orgSelector,
  name: Type.String({ minLength: 1, maxLength: 100 }),
  icon: Type.Optional(Type.String({ maxLength: 200, description: 'An icon name, e.g. 0_lego' })),
  color: Type.Optional(Type.String({ description: 'Hex color, e.g. #2196F3' })),
  desc: Type.Optional(Type.String({ maxLength: 10_000, description: 'The description (the public name)' })),
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  remark: Type.Optional(Type.String({ description: 'Accepted and not kept' })),
  navLayout: Type.Optional(Type.Union([Type.Literal('group'), Type.Literal('tree'), Type.Literal('top'), Type.Literal('card')], { description: 'Accepted and not kept' })),
  navColor: Type.Optional(Type.Union([Type.Literal('appColor'), Type.Literal('white'), Type.Literal('gray'), Type.Literal('black')], { description: 'Accepted and not kept' })),
  enableExternalPortal: Type.Optional(LenientBoolean({ description: 'Accepted and not kept' })),
});

export const CreatedAppOut = Type.Object({ appId: Type.String(), organizationId: Type.String(), name: Type.String(), icon: Type.String(), color: Type.String() });

export const MembersOut = Type.Object({
  users: Type.Array(
    Type.Object({
      accountId: Type.String(),
      fullname: Type.String(),
      mobile: Type.String({ description: 'First 3 and last 4 characters, the rest *' }),
      email: Type.String({ description: 'Local part masked' }),
      departments: Type.Array(LocatedDepartment),
    }),
  ),
});

export const DepartmentsOut = Type.Object({ departments: Type.Array(LocatedDepartment) });
