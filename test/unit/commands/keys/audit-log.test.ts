import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalEnvironmentError } from '../../../../src/core/errors.js';
import { openAuditLog, type AuditEntry } from '../../../../src/commands/keys/audit-log.js';
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
  it('appends one JSON line per rotation to a 0600 file, redacted', async () => {
    const dir = tempDir('appraisal-audit-');
    const path = join(dir, 'rotations.jsonl');
    writeFileSync(path, '{"earlier":true}\n', { mode: 0o644 });
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
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a path that cannot be a log file is exit 2 before anything happens', async () => {
    const dir = tempDir('appraisal-audit-');
    mkdirSync(join(dir, 'adir'));
    await expect(openAuditLog('adir', dir, (t) => t)).rejects.toBeInstanceOf(LocalEnvironmentError);
    await expect(openAuditLog('missing/dir/log.jsonl', dir, (t) => t)).rejects.toThrow(
      /cannot open --audit-log missing\/dir\/log.jsonl: ENOENT/,
    );
  });
});
