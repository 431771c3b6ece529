// Temporary directories for tests, removed when the test file ends (test/helpers/setup.ts runs
// removeTempDirs in an afterAll of every file), so a run leaves nothing behind in /tmp.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh directory under the system temp dir, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every entry of a directory (hidden ones too): what a failed export must not leave behind. */
export function entriesOf(dir: string): string[] {
  return readdirSync(dir).sort();
}

/**
 * entriesOf without the pair a failed resumable export keeps beside --out on purpose
 * (`.NAME.partial` with its `.NAME.checkpoint`); either one alone stays listed, so a test still fails.
 */
export function entriesBesidePartial(dir: string): string[] {
  const entries = entriesOf(dir);
  const pairs = new Set(
    entries.flatMap((entry) => {
      const name = /^\.(.+)\.partial$/.exec(entry)?.[1];
      return name !== undefined && entries.includes(`.${name}.checkpoint`) ? [entry, `.${name}.checkpoint`] : [];
    }),
  );
  return entries.filter((entry) => !pairs.has(entry));
}
