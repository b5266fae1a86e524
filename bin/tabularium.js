#!/usr/bin/env node
// The `tabularium` command. The TypeScript is compiled to dist/ by `npm install` (prepare) or `npm run build`.
import { runCli } from '../dist/cli/index.js';

await runCli(process.argv);
