// The order test files start in: files with a process of their own (isolated) first, then longest
// first, from a committed table of each file's duration (test/durations.json, written by
// `node scripts/test-durations.mjs REPORT` from a run's JSON report).
// vitest orders by the durations in its own results cache, which a fresh clone (CI) does not have:
// it then starts the largest files first, and a small but slow one (fuzz-bounded.test.ts) started
// last kept the whole run waiting on that one file for 11 s. A file the table does not know yet starts
// first among its kind, as vitest starts unknown files. Isolated files go before the others because
// vitest stops a shared worker whose next queued file is isolated (it keeps it only for a file of the
// same project): at the front of the queue they cost no shared worker its loaded modules.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;
    const duration = (spec: TestSpecification) => table[relative(this.ctx.config.root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    const shared = (spec: TestSpecification) => (spec.project.config.isolate ? 0 : 1);
    return [...files].sort((a, b) => {
      if (shared(a) !== shared(b)) return shared(a) - shared(b);
      const [da, db] = [duration(a), duration(b)];
      return da === db ? 0 : da > db ? -1 : 1;
    });
  }
}
