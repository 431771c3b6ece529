#!/usr/bin/env node
// Loads the bundled CLI from dist/. Built by `npm run build` (npm test and npm run demo build it too).
// CommonJS (bin/package.json says so), like dist/cli.cjs: Node's ES module loader would cost
// ~5-8 ms of CPU at every start.
'use strict';
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'cli.cjs');
let cli;
try {
  cli = require(entry);
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(entry)) {
    process.stderr.write('error: appraisal-cli is not built yet\nhint: run `npm run build` in the project directory\n');
    process.exit(1);
  }
  throw error;
}
cli.run();
