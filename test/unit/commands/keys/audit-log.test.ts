import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalEnvironmentError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { openAuditLog, type AuditEntry } from '../../../../src/commands/keys/rotation/audit-log.js';
import { SecretRedactor } from '../../../../src/core/redact.js';
import { tempDir } from '../../../helpers/temp.js';

const entry = (outcome: string): AuditEntry => ({
  at: '2026-03-01T00:00:00.000Z',
  profile: 'default',
  origin: 'https://api.test:443',
  oldPrefix: 'apk_AAAAaaaa',
  newPrefix: 'apk_BBBBbbbb',
  keepOld: false,
  steps: [{ step: 'read-current', ok: true, ms: 3 }],
  rollback: [],
  outcome,
});

describe('--audit-log', () => {
  it('appends one JSON line per rotation, redacted; a file it did not create keeps its mode (never chmodded)', async () => {
    const dir = tempDir('appraisal-audit-');
    const path = join(dir, 'rotations.jsonl');
    writeFileSync(path, '{"earlier":true}\n', { mode: 0o644 });
    execFileSync('chmod', ['644', path]);
    const redactor = new SecretRedactor();
    const log = await openAuditLog('rotations.jsonl', dir, (text) => redactor.redact(text));
    const leaky = entry('rotated');
    leaky.steps[0]!.error = 'boom apk_AAAAaaaa_0123456789abcdefghijABCDEFGHIJ';
    await log.append(leaky);
    await log.append(entry('rolled-back'));
    await log.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]!)).toMatchObject({ outcome: 'rotated', oldPrefix: 'apk_AAAAaaaa' });
    expect(lines[1]).not.toContain('0123456789abcdefghij');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o644);
  });

  it.runIf(process.platform !== 'win32')('a new log is created 0600 whatever the umask', async () => {
    const dir = tempDir('appraisal-audit-');
    const old = process.umask(0);
    try {
      const log = await openAuditLog('new.jsonl', dir, (t) => t);
      await log.append(entry('rotated'));
      await log.close();
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, 'new.jsonl')).mode & 0o777).toBe(0o600);
  });

  it.runIf(process.platform !== 'win32')(
    'issue 26 §3: a planted symlink, hard link or FIFO at the path is refused (exit 2); the file it points at is neither chmodded nor appended to',
    async () => {
      const dir = tempDir('appraisal-audit-');
      const victim = join(dir, 'victim.conf');
      writeFileSync(victim, 'root-owned settings\n', { mode: 0o644 });
      execFileSync('chmod', ['644', victim]);
      symlinkSync(victim, join(dir, 'via-symlink.jsonl'));
      linkSync(victim, join(dir, 'via-hardlink.jsonl'));
      execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
      const cases: Array<[string, RegExp]> = [
        ['via-symlink.jsonl', /^--audit-log via-symlink\.jsonl is a symbolic link; refusing to use it$/],
        ['via-hardlink.jsonl', /^--audit-log via-hardlink\.jsonl has 2 hard links/],
        ['fifo.jsonl', /^--audit-log fifo\.jsonl is a FIFO \(named pipe\), not a regular file; refusing to use it$/],
      ];
      for (const [name, message] of cases) {
        const error = await openAuditLog(name, dir, (t) => t).catch((caught: unknown) => caught);
        expect((error as Error).message).toMatch(message);
        expect(exitCodeFor(error)).toBe(2);
      }
      expect(readFileSync(victim, 'utf8')).toBe('root-owned settings\n');
      expect(statSync(victim).mode & 0o777).toBe(0o644);
    },
  );

  it('a path that cannot be a log file is exit 2 before anything happens', async () => {
    const dir = tempDir('appraisal-audit-');
    mkdirSync(join(dir, 'adir'));
    await expect(openAuditLog('adir', dir, (t) => t)).rejects.toBeInstanceOf(LocalEnvironmentError);
    await expect(openAuditLog('missing/dir/log.jsonl', dir, (t) => t)).rejects.toThrow(
      /cannot open --audit-log missing\/dir\/log.jsonl: no such file or directory/,
    );
  });
});
