#!/usr/bin/env node
// Loads the bundled CLI from dist/. Built by `npm run build` (npm test and npm run demo build it too).
// CommonJS (bin/package.json says so), like dist/cli.cjs: Node's ES module loader would cost
// ~5-8 ms of CPU at every start.
//
// Written in syntax every Node parses (var, no arrows, no trailing commas, no `node:` prefix):
// an older Node gets one clear line instead of a syntax error from the bundle. The minimum is the
// one in package.json's `engines` (test/unit/package-manifest.test.ts keeps them equal).
'use strict';
var MINIMUM = [20, 18];
var running = String(process.versions.node).split('.').map(Number);
if (running[0] < MINIMUM[0] || (running[0] === MINIMUM[0] && running[1] < MINIMUM[1])) {
  var tooOld = 'error: appraisal-cli needs Node.js ' + MINIMUM.join('.') + ' or newer, this is Node.js ' + process.versions.node;
  process.stderr.write(tooOld + ' (install a newer Node, or use the single executable, which needs none)\n');
  process.exit(1);
}
var join = require('path').join;

var entry = join(__dirname, '..', 'dist', 'cli.cjs');
var cli;
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
