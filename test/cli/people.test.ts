import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, runCli, type CliResult } from '../helpers/processes.js';

/** `tabularium users|departments|org import`: people of an organization from the command line. */

function json<T>(result: CliResult): T {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

function refused(result: CliResult, message: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`tabularium: ${message}\n`);
}

interface Department {
  id: string;
  path: string;
  managers: string[];
  children: Department[];
}

const IMPORT = {
  departments: [{ name: 'Sales', managers: ['lin@example.org'], children: [{ name: 'North' }, { name: 'South' }] }, { name: 'East', parent: 'Sales' }],
  jobs: ['Engineer', 'Clerk'],
  orgRoles: ['Auditors'],
  users: [
    { email: 'lin@example.org', fullname: 'Lin', departments: ['Sales/North'], jobs: ['Engineer'], orgRoles: ['Auditors'] },
    { email: 'max@example.org', fullname: 'Max', mobile: '+1 555 0100', departments: ['Sales/East', 'Sales'], primaryDepartment: 'Sales', admin: true },
  ],
};

beforeAll(ensureBuilt, 180_000);

describeEachEngine('tabularium users, departments and org import', (engine) => {
  let testDatabase: TestDatabase;
  let env: Record<string, string>;
  let folder: string;

  beforeAll(async () => {
    testDatabase = await engine.create();
    env = { DATABASE_URL: testDatabase.url };
    folder = await mkdtemp(join(tmpdir(), 'tabularium-import-'));
    json(await runCli(['setup', '--json'], env));
  }, 60_000);
  afterAll(() => testDatabase?.drop());

  it('creates people, printing a generated password once, and refuses a short one and a taken email', async () => {
    const made = json<{ user: { accountId: string; email: string; isAdmin: boolean }; password: string }>(await runCli(['users', 'create', '--email', 'Ada@Example.org', '--name', 'Ada', '--admin', '--json'], env));
    expect(made.user).toMatchObject({ email: 'ada@example.org', isAdmin: true });
    expect(made.password).toHaveLength(20);
    const chosen = json<{ user: object; password?: string }>(await runCli(['users', 'create', '--email', 'bob@example.org', '--name', 'Bob', '--password', 'long enough', '--json'], env));
    expect(chosen.password).toBeUndefined();
    const short = await runCli(['users', 'create', '--email', 'cy@example.org', '--name', 'Cy', '--password', 'short12'], env);
    refused(short, 'password: must be at least 8 characters long');
    expect(short.stderr + short.stdout).not.toContain('short12');
    refused(await runCli(['users', 'create', '--email', 'ADA@example.org', '--name', 'Ada'], env), 'email: a user with email "ada@example.org" exists already');
    refused(await runCli(['users', 'create', '--email', 'x@example.org', '--name', 'X', '--org', 'nowhere'], env), 'no organization "nowhere"');
  });

  it('lists, disables and resets passwords by email', async () => {
    const listed = json<{ total: number; users: Array<{ email: string; status: number }> }>(await runCli(['users', 'list', '--json'], env));
    expect(listed.users.map((u) => u.email)).toEqual(['ada@example.org', 'bob@example.org', 'owner@tabularium.local']);
    expect(json<{ status: number }>(await runCli(['users', 'disable', '--email', 'bob@example.org', '--json'], env)).status).toBe(2);
    const plain = await runCli(['users', 'list'], env);
    expect(plain.stdout).toContain('bob@example.org\tBob\tdisabled');
    expect(json<{ password: string }>(await runCli(['users', 'reset-password', '--email', 'bob@example.org', '--json'], env)).password).toHaveLength(20);
    expect(json<{ password?: string }>(await runCli(['users', 'reset-password', '--email', 'bob@example.org', '--password', 'brand new pw', '--json'], env)).password).toBeUndefined();
    refused(await runCli(['users', 'disable', '--email', 'nobody@example.org'], env), 'no user with email "nobody@example.org" in this organization');
  });

  it('creates departments with managers and lists the tree with paths', async () => {
    const top = json<{ id: string; path: string; managers: string[] }>(await runCli(['departments', 'create', '--name', 'Plant', '--manager', 'ada@example.org', '--json'], env));
    expect(top.path).toBe('Plant');
    expect(top.managers).toHaveLength(1);
    const below = json<{ path: string }>(await runCli(['departments', 'create', '--name', 'Floor', '--parent', top.id, '--json'], env));
    expect(below.path).toBe('Plant/Floor');
    refused(await runCli(['departments', 'create', '--name', 'Floor', '--parent', top.id], env), 'name: a department "Plant/Floor" exists already');
    refused(await runCli(['departments', 'create', '--name', 'Z', '--parent', 'nope'], env), 'parentId: no department "nope" in this organization');
    const plain = await runCli(['departments', 'list'], env);
    expect(plain.stdout).toMatch(/^Plant\t\w+\nPlant\/Floor\t\w+\n$/);
  });

  it('imports an organization file all at once, and again without changing anything', async () => {
    const file = join(folder, 'org.json');
    await writeFile(file, JSON.stringify(IMPORT));
    const first = json<Record<string, unknown>>(await runCli(['org', 'import', file, '--json'], env));
    expect(first).toEqual({ departments: { created: 4, existing: 0 }, jobs: { created: 2, existing: 0 }, orgRoles: { created: 1, existing: 0 }, users: { created: 2, updated: 0 } });
    const again = json<Record<string, unknown>>(await runCli(['org', 'import', file, '--json'], env));
    expect(again).toEqual({ departments: { created: 0, existing: 4 }, jobs: { created: 0, existing: 2 }, orgRoles: { created: 0, existing: 1 }, users: { created: 0, updated: 2 } });
    const tree = json<Department[]>(await runCli(['departments', 'list', '--json'], env));
    const sales = tree.find((d) => d.path === 'Sales')!;
    expect(sales.children.map((d) => d.path)).toEqual(['Sales/North', 'Sales/South', 'Sales/East']);
    expect(sales.managers).toHaveLength(1);
    const users = json<{ users: Array<{ email: string; isAdmin: boolean; departments: Array<{ path: string; isPrimary: boolean }>; jobs: Array<{ name: string }> }> }>(await runCli(['users', 'list', '--search', 'example.org', '--json'], env)).users;
    const max = users.find((u) => u.email === 'max@example.org')!;
    expect(max.isAdmin).toBe(true);
    expect(max.departments).toEqual([expect.objectContaining({ path: 'Sales', isPrimary: true }), expect.objectContaining({ path: 'Sales/East', isPrimary: false })]);
    expect(users.find((u) => u.email === 'lin@example.org')!.jobs.map((j) => j.name)).toEqual(['Engineer']);
  });

  it('refuses a broken file whole, naming the place', async () => {
    const bad = join(folder, 'bad.json');
    await writeFile(bad, JSON.stringify({ departments: [{ name: 'Ops' }], users: [{ email: 'new@example.org', fullname: 'New', departments: ['Nowhere'] }] }));
    refused(await runCli(['org', 'import', bad], env), 'users[0].departments[0]: no department "Nowhere" in the file or in the organization');
    const tree = json<Department[]>(await runCli(['departments', 'list', '--json'], env));
    expect(tree.map((d) => d.path)).not.toContain('Ops');
    await writeFile(bad, JSON.stringify({ users: [{ email: 'x@example.org' }] }));
    refused(await runCli(['org', 'import', bad], env), "users[0].fullname: Expected required property");
    await writeFile(bad, '{ not json');
    expect((await runCli(['org', 'import', bad], env)).stderr).toMatch(/^tabularium: .*bad\.json is not JSON: /);
    refused(await runCli(['org', 'import', join(folder, 'missing.json')], env), `cannot read ${join(folder, 'missing.json')}: ENOENT`);
  });
});
