import { Command } from 'commander';
import { ConfigError } from '../config/index.js';
import { PACKAGE_VERSION } from '../shared/version.js';
import { AppError } from '../shared/app-error.js';
import { registerServe } from './commands/serve.js';
import { registerWorker } from './commands/worker.js';
import { registerSetup } from './commands/setup.js';
import { registerMigrate } from './commands/migrate.js';
import { registerApps } from './commands/apps.js';
import { registerKeys } from './commands/keys.js';
import { registerTokens } from './commands/tokens.js';
import { registerOAuthClients } from './commands/oauth-clients.js';
import { registerUsers } from './commands/users.js';
import { registerDepartments } from './commands/departments.js';
import { registerOrg } from './commands/org.js';
import { registerSweep } from './commands/sweep.js';
import { registerKnowledge } from './commands/knowledge.js';

/**
 * The `tabularium` command. Every command reads its settings (DATABASE_URL, …) from the
 * environment through the config module.
 */
export async function runCli(argv: string[]): Promise<void> {
  const program = new Command('tabularium')
    .description('Self-hostable server for the Record, Workflow and Application Management REST interface, version 3')
    .version(PACKAGE_VERSION);
  registerServe(program);
  registerWorker(program);
  registerSetup(program);
  registerMigrate(program);
  registerApps(program);
  registerKeys(program);
  registerTokens(program);
  registerOAuthClients(program);
  registerUsers(program);
  registerDepartments(program);
  registerOrg(program);
  registerSweep(program);
  registerKnowledge(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppError) {
      process.stderr.write(`tabularium: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
