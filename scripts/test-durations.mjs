// Writes test/durations.json (how long each test file took, in ms) from the JSON report of a run:
//
//   node scripts/test-durations.mjs /tmp/vitest-report-XXXX/report.json
//
// `npm test` prints the report's path on its last lines. test/longest-first.ts reads the table to start
// the longest files first on a fresh clone; regenerate it when files are added or their times change.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  process.stderr.write('usage: node scripts/test-durations.mjs REPORT.json\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const table = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round(file.endTime - file.startTime)])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(table, null, 2)}\n`);
process.stdout.write(`test/durations.json: ${Object.keys(table).length} files\n`);
