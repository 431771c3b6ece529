// Runs vitest and ends with the plain closing line CI reads ("N passed, N failed, N skipped").
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const report = join(mkdtempSync(join(tmpdir(), 'vitest-report-')), 'report.json');
const vitest = join('node_modules', 'vitest', 'vitest.mjs');
const child = spawn(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
child.on('close', (code) => {
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    const skipped = result.numPendingTests + result.numTodoTests;
    console.log(`${result.numPassedTests} passed, ${result.numFailedTests} failed, ${skipped} skipped`);
  } catch {
    console.log('vitest wrote no report');
  }
  process.exit(code ?? 1);
});
