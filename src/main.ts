import cluster from 'node:cluster';

/**
 * `node dist/main.js` serves, exactly like `tabularium serve`. With HTTP_PROCESSES > 1 this process
 * is the supervisor of the server processes and loads only the supervisor (`processes/`), not the
 * server's code: its memory is what the tree costs beyond the processes that serve.
 */
if (cluster.isPrimary) {
  const { loadConfig, ConfigError } = await import('./config/index.js');
  let config: ReturnType<typeof loadConfig> | undefined;
  try {
    config = loadConfig();
  } catch (error) {
    // The command reports it, with every other setting it checks.
    if (!(error instanceof ConfigError)) throw error;
  }
  if (config && config.httpProcesses > 1) {
    const { superviseServers } = await import('./processes/supervisor.js');
    superviseServers(config);
  } else await serve();
} else await serve();

async function serve(): Promise<void> {
  const { runCli } = await import('./cli/index.js');
  await runCli(['node', 'tabularium', 'serve', ...process.argv.slice(2)]);
}
