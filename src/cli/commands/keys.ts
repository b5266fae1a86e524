import type { Command } from 'commander';
import { setKeyAllowlist, setKeyWorksheets } from '../../modules/app-keys/index.js';
import { addKey } from '../../modules/setup/index.js';
import { printResult, withDatabase } from './with-database.js';

/** Collects a repeatable option's values. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * `tabularium keys create --app ID [--read-only] [--allow-ip CIDR]… [--json]`: another key for an application;
 * `tabularium keys allow-ip --key APPKEY (--cidr CIDR… | --any) [--json]`: the addresses a key may be used from.
 */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage app keys');
  keys
    .command('create')
    .description('add a key to an application; prints the secret and Sign once')
    .requiredOption('--app <appId>', 'the application id')
    .option('--read-only', 'the key may only read')
    .option('--allow-ip <cidr>', 'only this address or CIDR range may use the key (repeat for several)', collect, [])
    .option('--worksheet <id[:rights][@views]>', 'a custom key: only this worksheet, with rights read+add+edit+delete (default read), through the views @VIEW,VIEW if named (repeat for several)', collect, [])
    .option('--json', 'print JSON')
    .action(async (options: { app: string; readOnly?: boolean; allowIp: string[]; worksheet: string[]; json?: boolean }) => {
      const allowedIps = options.allowIp.length > 0 ? options.allowIp : null;
      const result = await withDatabase(async (db) => {
        const issued = await addKey(db, options.app, options.readOnly === true, Date.now(), allowedIps);
        const custom = options.worksheet.length > 0 ? await setKeyWorksheets(db, issued.appKey, options.worksheet) : null;
        return { ...issued, ...(custom ? { worksheets: custom.worksheets } : {}) };
      });
      printResult({ ...result, ...(allowedIps ? { allowedIps } : {}) }, options.json === true);
    });
  keys
    .command('worksheets')
    .description('make a key custom: only the listed worksheets (--worksheet, repeatable), or every worksheet again (--all); running servers see it within 30 s')
    .requiredOption('--key <appKey>', 'the app key (its public part, the Appkey header)')
    .option('--worksheet <id[:rights][@views]>', 'a worksheet the key may reach, with rights read+add+edit+delete (default read), only through the views @VIEW,VIEW if named', collect, [])
    .option('--all', 'every worksheet of the application')
    .option('--json', 'print JSON')
    .action(async (options: { key: string; worksheet: string[]; all?: boolean; json?: boolean }, command: Command) => {
      if (options.all === true && options.worksheet.length > 0) command.error('error: give either --worksheet or --all, not both');
      if (options.all !== true && options.worksheet.length === 0) command.error('error: give --worksheet ID[:rights][@VIEW,VIEW] (repeatable) or --all');
      const result = await withDatabase((db) => setKeyWorksheets(db, options.key, options.all === true ? null : options.worksheet));
      printResult({ appKey: result.appKey, worksheets: result.worksheets === null ? 'all' : JSON.stringify(result.worksheets) }, options.json === true);
    });
  keys
    .command('allow-ip')
    .description('restrict a key to addresses and CIDR ranges (--cidr, repeatable), or let any address use it (--any); running servers see it within 30 s')
    .requiredOption('--key <appKey>', 'the app key (its public part, the Appkey header)')
    .option('--cidr <cidr>', 'an address or CIDR range that may use the key (repeat for several)', collect, [])
    .option('--any', 'any address may use the key')
    .option('--json', 'print JSON')
    .action(async (options: { key: string; cidr: string[]; any?: boolean; json?: boolean }, command: Command) => {
      if (options.any === true && options.cidr.length > 0) command.error('error: give either --cidr or --any, not both');
      if (options.any !== true && options.cidr.length === 0) command.error('error: give --cidr CIDR (repeatable) or --any');
      const result = await withDatabase((db) => setKeyAllowlist(db, options.key, options.any === true ? null : options.cidr));
      const json = options.json === true;
      printResult(json ? { ...result } : { appKey: result.appKey, allowedIps: result.allowedIps?.join(', ') ?? 'any' }, json);
    });
}
