#!/usr/bin/env node
// Copies the latest benchmark report (bench/results.json, written by `npm run bench`) into the
// docs/PERFORMANCE.md's table, between the `<!-- bench:start -->` and `<!-- bench:end -->` markers:
// the machine and load, the table of every target row with holds / misses, and for each miss the gap
// and its reason (bench/lib/reasons.mjs). Run it after a full bench:
//
//   npm run bench && node scripts/bench-readme.mjs
//   node scripts/bench-readme.mjs --check    exit 1 when docs/PERFORMANCE.md is not up to date with the report
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REASONS } from '../bench/lib/reasons.mjs';
import { misses, tableMarkdown } from '../bench/lib/report.mjs';

const ROOT = join(import.meta.dirname, '..');
const README = join(ROOT, 'docs', 'PERFORMANCE.md');
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

function fail(message, hint) {
  process.stderr.write(`error: ${message}\n${hint ? `hint: ${hint}\n` : ''}`);
  process.exit(1);
}

let result;
try {
  result = JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8'));
} catch (error) {
  fail(`cannot read bench/results.json: ${error.message}`, 'run `npm run bench` first');
}
if (result.quick || (result.ran && result.ran.length < 5))
  fail('bench/results.json is not from a full run', 'run `npm run bench` without --quick or --only');

const m = result.machine;
const busyAbove = result.load?.busyAbove ?? 1;
const busy = result.rows.filter((row) => row.load !== undefined && row.load > busyAbove).length;
const lines = [
  START,
  `Latest full run: ${result.date.slice(0, 10)}${result.commit ? `, commit ${result.commit}${result.dirty ? ' (uncommitted changes)' : ''}` : ''}; ${m.cpu}, ${m.cores} cores, Node ${result.node.replace(/^v/, '')}, ${result.curl ?? 'no curl'}; ` +
    `load average ${result.load?.start ?? '?'} at the start, ${result.load?.end ?? '?'} at the end` +
    (busy > 0 ? ` (${busy} figure(s) measured above ${busyAbove}, marked ⚠: wall times noisier, CPU times less so).` : '.'),
  '',
  tableMarkdown(result.rows, busyAbove),
  '',
];
const missed = misses(result.rows);
const failed = result.rows.filter((row) => row.status === 'failed' || row.status === 'not-measured');
if (missed.length > 0 || failed.length > 0) {
  lines.push('Where a target is missed or not measured, and why:', '');
  for (const row of missed) lines.push(`- **${row.benchmark}**: ${row.gap}.${REASONS[row.id] ? ` ${REASONS[row.id]}` : ''}`);
  for (const row of failed) lines.push(`- **${row.benchmark}**: ${row.status === 'failed' ? 'failed' : 'not measured'}: ${row.reason}.`);
  lines.push('');
} else {
  lines.push('Every target holds.', '');
}
lines.push(END);
const section = lines.join('\n');

const readme = readFileSync(README, 'utf8');
const from = readme.indexOf(START);
const to = readme.indexOf(END);
if (from < 0 || to < from) fail(`docs/PERFORMANCE.md has no ${START} … ${END} section`);
const updated = readme.slice(0, from) + section + readme.slice(to + END.length);
if (process.argv.includes('--check')) {
  if (updated !== readme) fail('docs/PERFORMANCE.md does not show the latest bench/results.json', 'run `node scripts/bench-readme.mjs`');
  process.exit(0);
}
writeFileSync(README, updated);
process.stdout.write(`docs/PERFORMANCE.md: updated from bench/results.json (${result.date})\n`);
