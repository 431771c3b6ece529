// The order test files start in: longest first, from a committed table of each file's duration
// (test/durations.json, written by `node scripts/test-durations.mjs REPORT` from a run's JSON report).
// vitest orders by the durations in its own results cache, which a fresh clone (CI) does not have:
// it then starts the largest files first, and a small but slow one (fuzz-bounded.test.ts) started
// last kept the whole run waiting on that one file for 11 s. A file the table does not know yet starts
// first, as vitest starts unknown files; the order decides nothing else.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;
    const duration = (spec: TestSpecification) => table[relative(this.ctx.config.root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => {
      const [da, db] = [duration(a), duration(b)];
      return da === db ? 0 : da > db ? -1 : 1;
    });
  }
}
