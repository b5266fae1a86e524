import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../shared/app-error.js';

/**
 * The file `tabularium org import` reads (documented in docs/api.md, "Importing an organization").
 * Departments are nested (`children`) or name their parent by path (`"parent": "Sales/North"`, a
 * department earlier in the file or already in the organization); people name their departments by
 * path and their jobs and roles by name.
 */

interface DepartmentEntry {
  name: string;
  parent?: string;
  managers?: string[];
  children?: DepartmentEntry[];
}

const DepartmentEntrySchema: TSchema = Type.Recursive((self) =>
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      parent: Type.Optional(Type.String({ minLength: 1 })),
      managers: Type.Optional(Type.Array(Type.String(), { description: 'Emails of people of the file or of the organization' })),
      children: Type.Optional(Type.Array(self)),
    },
    { additionalProperties: false },
  ),
);

const UserEntry = Type.Object(
  {
    email: Type.String({ minLength: 1 }),
    fullname: Type.String({ minLength: 1 }),
    mobile: Type.Optional(Type.String()),
    admin: Type.Optional(Type.Boolean()),
    departments: Type.Optional(Type.Array(Type.String())),
    primaryDepartment: Type.Optional(Type.String()),
    jobs: Type.Optional(Type.Array(Type.String())),
    orgRoles: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

const ImportFileSchema = Type.Object(
  {
    departments: Type.Optional(Type.Array(DepartmentEntrySchema)),
    jobs: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    orgRoles: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    users: Type.Optional(Type.Array(UserEntry)),
  },
  { additionalProperties: false },
);

export type ImportDepartment = DepartmentEntry;
export type ImportUser = Static<typeof UserEntry>;
export interface ImportFile {
  departments?: ImportDepartment[];
  jobs?: string[];
  orgRoles?: string[];
  users?: ImportUser[];
}

/**
 * The parsed file, or 10001 naming the first place it breaks the format (`users[2].email: …`).
 * @example parseImportFile(JSON.parse(text))
 */
export function parseImportFile(value: unknown): ImportFile {
  const error = Value.Errors(ImportFileSchema, value).First();
  if (error) {
    const where = error.path.replace(/^\//, '').replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.') || 'the file';
    throw AppError.invalidParameters(`${where}: ${error.message}`);
  }
  return value as ImportFile;
}
