// The lock file's wait: a live holder is waited for (never by spinning), a released lock is taken,
// and Ctrl-C (the signal) ends the wait at once without taking or removing the other's lock.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/core/errors.js';
import { withFileLock } from '../../../src/core/file-lock.js';

const dirs: string[] = [];
function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'appraisal-lock-'));
  dirs.push(dir);
  return join(dir, 'config.json.lock');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A lock held by this (live) process, as another command would hold it. */
function holdLock(path: string): void {
  writeFileSync(path, `${process.pid}\n`);
}

describe('withFileLock', () => {
  it('runs the work holding the lock, and removes it afterwards', async () => {
    const path = lockPath();
    const seen = await withFileLock(path, () => readFileSync(path, 'utf8'));
    expect(seen).toBe(`${process.pid}\n`);
    expect(existsSync(path)).toBe(false);
  });

  it('a dangling symlink at the lock is stale: taken over, its target never created', async () => {
    const path = lockPath();
    symlinkSync(`${path}.nowhere`, path);
    await expect(withFileLock(path, () => 'done')).resolves.toBe('done');
    expect(existsSync(`${path}.nowhere`)).toBe(false);
  });

  it('waits for a live holder and goes on as soon as it lets go', async () => {
    const path = lockPath();
    holdLock(path);
    let waitingFor: string | undefined;
    const result = withFileLock(path, () => 'mine', {
      onWait: (holder) => {
        waitingFor = holder;
        rmSync(path); // the other command finishes
      },
    });
    await expect(result).resolves.toBe('mine');
    expect(waitingFor).toBe(String(process.pid));
  });

  it('Ctrl-C during the wait ends it at once with InterruptedError; the work never runs and the holder keeps its lock', async () => {
    const path = lockPath();
    holdLock(path);
    const controller = new AbortController();
    let ran = false;
    const result = withFileLock(path, () => (ran = true), {
      signal: controller.signal,
      // Interrupt once the wait is under way (the notice), not after a fixed time.
      onWait: () => controller.abort(new InterruptedError()),
    });
    await expect(result).rejects.toBeInstanceOf(InterruptedError);
    expect(ran).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('a free lock is still taken after Ctrl-C (a rollback may need it); only a wait is interrupted', async () => {
    const path = lockPath();
    const controller = new AbortController();
    controller.abort(new InterruptedError());
    await expect(withFileLock(path, () => 'rolled back', { signal: controller.signal })).resolves.toBe('rolled back');
  });
});
