import type { Command } from 'commander';
import { accountByEmail, createToken, listTokens, revokeToken } from '../../modules/access-tokens/index.js';
import { printResult, withDatabase } from './with-database.js';

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((v) => v.trim()).filter((v) => v !== ''));

/**
 * `tabularium tokens create|list|revoke`: personal access tokens of a person, for administrators
 * setting up scripts (people make their own on the settings page).
 */
export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description("manage people's personal access tokens");
  tokens
    .command('create')
    .description('make a token for a person; prints it once')
    .requiredOption('--user <email>', "the person's email")
    .requiredOption('--scopes <scopes>', 'comma-separated scope names (record:list,record:get) or codes, or "all"')
    .option('--expires <when>', '"never", a number of days (30 or 30d), or a date (2027-01-31)', 'never')
    .option('--apps <appIds>', 'only these applications (comma-separated; default: all of the person\'s)')
    .option('--orgs <organizationIds>', 'only these organizations (comma-separated; default: all of the person\'s)')
    .option('--name <name>', 'what the token is for', 'cli')
    .option('--json', 'print JSON')
    .action(async (options: { user: string; scopes: string; expires: string; apps?: string; orgs?: string; name: string; json?: boolean }) => {
      const made = await withDatabase(async (db) => {
        const account = await accountByEmail(db, options.user);
        const scopes = options.scopes.trim() === 'all' ? 'all' : (list(options.scopes) ?? []);
        return createToken(db, account.id, { name: options.name, scopes, expires: options.expires, appIds: list(options.apps), organizationIds: list(options.orgs) }, Date.now());
      });
      printResult({ token: made.token, id: made.id, name: made.name, scopes: made.scopes.join(','), expiresAt: made.expiresAt ?? 'never' }, options.json === true);
    });
  tokens
    .command('list')
    .description("a person's tokens (never the secrets)")
    .requiredOption('--user <email>', "the person's email")
    .option('--json', 'print JSON')
    .action(async (options: { user: string; json?: boolean }) => {
      const listed = await withDatabase(async (db) => listTokens(db, (await accountByEmail(db, options.user)).id, Date.now()));
      if (options.json === true) process.stdout.write(`${JSON.stringify({ tokens: listed }, null, 2)}\n`);
      else for (const t of listed) process.stdout.write(`${t.id}  ${t.hint}  ${t.status}  ${t.name}  expires ${t.expiresAt ?? 'never'}\n`);
    });
  tokens
    .command('revoke')
    .description("revoke a person's token (it stops working within 5 seconds)")
    .requiredOption('--user <email>', "the person's email")
    .requiredOption('--id <tokenId>', 'the token id')
    .option('--json', 'print JSON')
    .action(async (options: { user: string; id: string; json?: boolean }) => {
      await withDatabase(async (db) => revokeToken(db, (await accountByEmail(db, options.user)).id, options.id, Date.now()));
      printResult({ revoked: options.id }, options.json === true);
    });
}
