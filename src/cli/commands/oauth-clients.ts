import type { Command } from 'commander';
import { createClient, listClients, setClientEnabled } from '../../modules/oauth/index.js';
import { organizationContext } from '../../modules/people/index.js';
import { printResult, withDatabase } from './with-database.js';

const list = (value: string | undefined) => (value === undefined ? [] : value.split(',').map((v) => v.trim()).filter((v) => v !== ''));

/** `tabularium oauth-clients create|list|disable|enable`: the OAuth clients of an organization. */
export function registerOAuthClients(program: Command): void {
  const clients = program.command('oauth-clients').description('manage the OAuth 2.0 clients of an organization');
  clients
    .command('create')
    .description('register a client; prints its secret once')
    .requiredOption('--name <name>', 'the name the consent page shows')
    .requiredOption('--redirect-uris <uris>', 'comma-separated exact redirect URIs')
    .requiredOption('--scopes <scopes>', 'comma-separated scope names it may ask for (record:list,record:get)')
    .option('--allowed-ips <ranges>', 'comma-separated addresses and CIDR ranges that may use it (default: any)')
    .option('--public', 'a public client: no secret, PKCE S256 required')
    .option('--org <organizationId>', 'the organization (default: the first one)')
    .option('--json', 'print JSON')
    .action(async (options: { name: string; redirectUris: string; scopes: string; allowedIps?: string; public?: boolean; org?: string; json?: boolean }) => {
      const made = await withDatabase(async (db) => {
        const { organizationId } = await organizationContext(db, options.org, Date.now());
        return createClient(db, organizationId, { name: options.name, redirectUris: list(options.redirectUris), scopes: list(options.scopes), allowedIps: list(options.allowedIps), public: options.public === true }, Date.now());
      });
      printResult({ clientId: made.clientId, ...(made.clientSecret ? { clientSecret: made.clientSecret } : {}), name: made.name, redirectUris: made.redirectUris.join(','), scopes: made.scopes.join(','), public: made.public }, options.json === true);
    });
  clients
    .command('list')
    .description('the clients of the organization (never their secrets)')
    .option('--org <organizationId>', 'the organization (default: the first one)')
    .option('--json', 'print JSON')
    .action(async (options: { org?: string; json?: boolean }) => {
      const listed = await withDatabase(async (db) => listClients(db, (await organizationContext(db, options.org, Date.now())).organizationId));
      if (options.json === true) process.stdout.write(`${JSON.stringify({ clients: listed }, null, 2)}\n`);
      else for (const c of listed) process.stdout.write(`${c.clientId}  ${c.enabled ? 'enabled' : 'disabled'}  ${c.public ? 'public' : 'confidential'}  ${c.name}  ${c.redirectUris.join(' ')}\n`);
    });
  for (const [verb, enabled] of [['disable', false], ['enable', true]] as const) {
    clients
      .command(verb)
      .description(enabled ? 'enable a client again' : 'disable a client: its tokens stop working within 5 seconds (600300)')
      .requiredOption('--client-id <clientId>', 'the client id')
      .option('--json', 'print JSON')
      .action(async (options: { clientId: string; json?: boolean }) => {
        const changed = await withDatabase(async (db) => setClientEnabled(db, null, options.clientId, enabled));
        printResult({ clientId: changed.clientId, enabled: changed.enabled }, options.json === true);
      });
  }
}
