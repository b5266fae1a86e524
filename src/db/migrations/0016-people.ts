import { sql, type Kysely } from 'kysely';

/**
 * People and organizations (`modules/people`): accounts gain mobile, avatar and updated_at; a person
 * may belong to several organizations (`organization_members`, backfilled from the account's home
 * organization, the first account of each organization being its administrator, as first-run setup
 * made it the owner); departments get an order and managers; jobs and organization roles; and who
 * belongs to which department, job and role. Emails are unique whatever their case, across the
 * instance: two accounts that differ only in case would fail here, which the earlier unique index
 * on the exact text did not prevent, but no code path ever wrote one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE accounts ADD COLUMN mobile TEXT NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE accounts ADD COLUMN avatar TEXT NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE accounts ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE accounts SET updated_at = created_at`.execute(db);
  await sql`CREATE UNIQUE INDEX accounts_email_folded ON accounts (lower(email))`.execute(db);

  await db.schema
    .createTable('organization_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_members_pk', ['organization_id', 'account_id'])
    .execute();
  await db.schema.createIndex('organization_members_account').on('organization_members').columns(['account_id']).execute();
  await sql`
    INSERT INTO organization_members (organization_id, account_id, is_admin, status, joined_at)
    SELECT a.organization_id, a.id,
           CASE WHEN a.id = (SELECT f.id FROM accounts f WHERE f.organization_id = a.organization_id ORDER BY f.created_at, f.id LIMIT 1) THEN 1 ELSE 0 END,
           a.status, a.created_at
    FROM accounts a`.execute(db);

  await sql`ALTER TABLE departments ADD COLUMN position INTEGER NOT NULL DEFAULT 0`.execute(db);
  await db.schema.createIndex('departments_parent').on('departments').columns(['organization_id', 'parent_id']).execute();
  await membershipTable(db, 'department_managers', 'department_id', 'departments');
  await membershipTable(db, 'department_members', 'department_id', 'departments', true);

  for (const [table, members, key] of [['jobs', 'job_members', 'job_id'], ['org_roles', 'org_role_members', 'role_id']] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_name`).on(table).columns(['organization_id', 'name']).unique().execute();
    await membershipTable(db, members, key, table);
  }
}

/** `(group, account)` pairs, keyed by both, with the account's groups found by an index. */
async function membershipTable(db: Kysely<unknown>, table: string, key: string, groups: string, primaryFlag = false): Promise<void> {
  let builder = db.schema
    .createTable(table)
    .addColumn(key, 'text', (c) => c.notNull().references(`${groups}.id`).onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'));
  if (primaryFlag) builder = builder.addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0));
  await builder.addPrimaryKeyConstraint(`${table}_pk`, [key, 'account_id']).execute();
  await db.schema.createIndex(`${table}_account`).on(table).columns(['account_id']).execute();
}
