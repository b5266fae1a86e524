import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { importOrganization, organizationContext } from '../../modules/people/index.js';
import { AppError } from '../../shared/app-error.js';
import { printResult, withDatabase } from './with-database.js';

/** `tabularium org import FILE.json`: departments, jobs, roles and people in one transaction. */
export function registerOrg(program: Command): void {
  const org = program.command('org').description('manage an organization');
  org
    .command('import')
    .description('load departments, jobs, organization roles and people from a JSON file (all or nothing; importing again changes nothing)')
    .argument('<file>', 'the JSON file (format: docs/api.md, "Importing an organization")')
    .option('--org <organizationId>', 'the organization (default: the first one)')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { org?: string; json?: boolean }) => {
      const content = await readImportFile(file);
      const report = await withDatabase(async (db) => importOrganization(await organizationContext(db, options.org, Date.now()), content));
      printResult({ ...report }, options.json === true);
    });
}

async function readImportFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw AppError.invalidParameters(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw AppError.invalidParameters(`${file} is not JSON: ${(error as Error).message}`);
  }
}
