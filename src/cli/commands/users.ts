import type { Command } from 'commander';
import { createUser, disableUserByEmail, listUsers, organizationContext, resetPasswordByEmail, type UserView } from '../../modules/people/index.js';
import { printResult, withDatabase } from './with-database.js';

const ORG_OPTION = ['--org <organizationId>', 'the organization (default: the first one)'] as const;

/** One line per person for the plain listing. */
function userLine(user: UserView): string {
  const departments = user.departments.map((d) => d.path).join(', ');
  return [user.email, user.fullname, user.status === 1 ? 'active' : 'disabled', user.isAdmin ? 'admin' : '', departments].join('\t').trimEnd();
}

/** `tabularium users create|list|disable|reset-password`: people of an organization. */
export function registerUsers(program: Command): void {
  const users = program.command('users').description('manage the people of an organization');
  users
    .command('create')
    .description('create a person; prints a generated password once when none is given')
    .requiredOption('--email <email>', 'their email (unique, whatever its case)')
    .requiredOption('--name <name>', 'their full name')
    .option('--mobile <mobile>', 'their phone number')
    .option('--password <password>', 'at least 8 characters (default: generated)')
    .option(...ORG_OPTION)
    .option('--admin', 'administers the organization')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; name: string; mobile?: string; password?: string; org?: string; admin?: boolean; json?: boolean }) => {
      const result = await withDatabase(async (db) =>
        createUser(await organizationContext(db, options.org, Date.now()), { email: options.email, fullname: options.name, mobile: options.mobile, password: options.password, isAdmin: options.admin === true }),
      );
      printResult({ ...result }, options.json === true);
    });
  users
    .command('list')
    .description('list the people of the organization')
    .option(...ORG_OPTION)
    .option('--search <text>', 'part of the name, email or mobile')
    .option('--json', 'print JSON')
    .action(async (options: { org?: string; search?: string; json?: boolean }) => {
      const page = await withDatabase(async (db) => listUsers(await organizationContext(db, options.org, Date.now()), { search: options.search, pageSize: 1_000_000 }));
      if (options.json === true) printResult({ ...page }, true);
      else for (const user of page.users) process.stdout.write(`${userLine(user)}\n`);
    });
  users
    .command('disable')
    .description('disable a person in the organization (their records stay; they cannot be newly written into records)')
    .requiredOption('--email <email>', 'their email')
    .option(...ORG_OPTION)
    .option('--json', 'print JSON')
    .action(async (options: { email: string; org?: string; json?: boolean }) => {
      const user = await withDatabase(async (db) => disableUserByEmail(await organizationContext(db, options.org, Date.now()), options.email));
      printResult({ accountId: user.accountId, email: user.email, status: user.status }, options.json === true);
    });
  users
    .command('reset-password')
    .description('set a new password; prints a generated one once when none is given')
    .requiredOption('--email <email>', 'their email')
    .option('--password <password>', 'at least 8 characters (default: generated)')
    .option(...ORG_OPTION)
    .option('--json', 'print JSON')
    .action(async (options: { email: string; password?: string; org?: string; json?: boolean }) => {
      const result = await withDatabase(async (db) => resetPasswordByEmail(await organizationContext(db, options.org, Date.now()), options.email, options.password));
      printResult({ ...result }, options.json === true);
    });
}
