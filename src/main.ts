import { runCli } from './cli/index.js';

/** `node dist/main.js` serves, exactly like `tabularium serve`. */
await runCli(['node', 'tabularium', 'serve', ...process.argv.slice(2)]);
