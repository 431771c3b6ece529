#!/usr/bin/env node
// Loads the bundled CLI from dist/. Built by `npm run build` (npm test and npm run demo build it too).
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli.js', import.meta.url);
let cli;
try {
  cli = await import(entry.href);
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(fileURLToPath(entry))) {
    process.stderr.write('error: appraisal-cli is not built yet\nhint: run `npm run build` in the project directory\n');
    process.exit(1);
  }
  throw error;
}
await cli.run();
