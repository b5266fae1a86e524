import type { Kysely } from 'kysely';

/**
 * Roles of applications (`roles`) and who holds them (`role_members`). A role's permissions are kept
 * as given, normalised, in JSON (`global_permissions`, `worksheet_permissions`, `page_permissions`):
 * they are read whole to compile a person's grants, never queried by part. `role_type` 0 is a custom
 * role, 100 the application's administrators. A member is a person, a department (alone, or with
 * its sub-departments: `department_tree`), a job or an organization role.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('role_type', 'integer', (c) => c.notNull())
    .addColumn('permission_scope', 'integer', (c) => c.notNull())
    .addColumn('hide_app', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('global_permissions', 'text', (c) => c.notNull())
    .addColumn('worksheet_permissions', 'text', (c) => c.notNull())
    .addColumn('page_permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('roles_app').on('roles').columns(['app_id', 'created_at']).execute();
  await db.schema
    .createTable('role_members')
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('member_type', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_members_pk', ['role_id', 'member_type', 'member_id'])
    .execute();
  await db.schema.createIndex('role_members_member').on('role_members').columns(['member_type', 'member_id']).execute();
}
