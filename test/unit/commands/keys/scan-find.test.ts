// keys scan's file search: line numbers, a key split across the pieces a big file is read in,
// symlinks and .git left alone, our pattern and --pattern.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyPattern, matchesIn, scanPaths } from '../../../../src/commands/keys/scanning/find-in-files.js';
import { UsageError } from '../../../../src/core/errors.js';

const KEY = `apk_AbCd1234_${'x'.repeat(32)}`;
const dir = mkdtempSync(join(tmpdir(), 'appraisal-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keys scan: finding keys in files', () => {
  it('reports the line and the prefix only, never a key inside a longer word', () => {
    const text = `a\nb ${KEY} c\n\nx${KEY}\n${KEY}9\n"${KEY}"`;
    expect(matchesIn(text, keyPattern(undefined), 'f')).toEqual([
      { file: 'f', line: 2, prefix: 'apk_AbCd1234' },
      { file: 'f', line: 6, prefix: 'apk_AbCd1234' },
    ]);
  });

  it('finds a key across the 8 MiB pieces of a large file, with its line; skips symlinks and .git', async () => {
    const big = join(dir, 'big.log');
    const head = `${'y'.repeat(99)}\n`.repeat(Math.floor((8 * 1024 * 1024 - 6) / 100));
    writeFileSync(big, `${head}${'z'.repeat(8 * 1024 * 1024 - 6 - head.length)}\nab ${KEY}\nend ${KEY}\n`);
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'packed'), KEY);
    symlinkSync(big, join(dir, 'link.log'));
    const found = await scanPaths([dir], dir, keyPattern(undefined));
    const lines = head.length / 100 + 2;
    expect(found).toEqual([
      { file: 'big.log', line: lines, prefix: 'apk_AbCd1234' },
      { file: 'big.log', line: lines + 1, prefix: 'apk_AbCd1234' },
    ]);
  });

  it('counts every match once: two with one shown prefix on one line are two; one in the overlap of two pieces is one', async () => {
    const file = join(dir, 'overlap', 'two.env');
    mkdirSync(join(dir, 'overlap'));
    // Wholly inside the last 512 bytes of the first 8 MiB piece, which the second piece reads again.
    const head = 'q'.repeat(8 * 1024 * 1024 - 200);
    const second = `apk_AbCd1234_${'y'.repeat(32)}`;
    writeFileSync(file, `${head}\n${KEY} ${KEY}\nSK=sk_live_0123456789abcdef sk_live_fedcba9876543210\n${second}\n`);
    const found = await scanPaths([join(dir, 'overlap')], dir, keyPattern(undefined));
    expect(found).toEqual([
      { file: 'overlap/two.env', line: 2, prefix: 'apk_AbCd1234' },
      { file: 'overlap/two.env', line: 2, prefix: 'apk_AbCd1234' },
      { file: 'overlap/two.env', line: 4, prefix: 'apk_AbCd1234' },
    ]);
    const custom = await scanPaths([join(dir, 'overlap')], dir, keyPattern('sk_live_[0-9a-f]{16}'));
    expect(custom).toEqual([
      { file: 'overlap/two.env', line: 3, prefix: 'sk_l…' },
      { file: 'overlap/two.env', line: 3, prefix: 'sk_l…' },
    ]);
  });

  it('--pattern replaces the format; a pattern that is not one, or matches nothing at all, is refused', () => {
    expect(matchesIn('token=sk_live_0123456789abcdef', keyPattern('sk_live_[0-9a-f]{16}'), 'f')).toEqual([
      { file: 'f', line: 1, prefix: 'sk_l…' },
    ]);
    expect(() => keyPattern('(')).toThrow(UsageError);
    expect(() => keyPattern('x*')).toThrow(/matches the empty string/);
  });
});

describe('keys scan --pattern: what is shown of a match that is not of our format', () => {
  it('its beginning, cut as any secret is (4, 2 or no characters by its length), then …; never the whole match', () => {
    const shown = (text: string, pattern: string) => matchesIn(`x ${text} y`, keyPattern(pattern), 'f').map((match) => match.prefix);
    expect(shown('hunter2', 'hunter[0-9]')).toEqual(['…']);
    expect(shown('hunter22', 'hunter[0-9]+')).toEqual(['hu…']);
    expect(shown('ghp_0123456789abcdef', 'ghp_[0-9a-f]+')).toEqual(['ghp_…']);
    // A pattern that matches our format still shows the key's own prefix, which the service knows.
    expect(shown(KEY, 'apk_\\w+')).toEqual(['apk_AbCd1234']);
  });
});

describe('keys scan: a path that cannot be read (issue 25 §5)', () => {
  it('says "no such file or directory" and repeats the path as typed, exit 2', async () => {
    const { run } = await import('../../../helpers/run.js');
    const cwd = mkdtempSync(join(tmpdir(), 'scan-cwd-'));
    const result = await run(['keys', 'scan', '/nonexistent/keys.txt'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: cannot read /nonexistent/keys.txt: no such file or directory\n');
    const relative = await run(['keys', 'scan', 'missing-dir'], { cwd });
    expect(relative.stderr).toContain('error: cannot read missing-dir: no such file or directory');
    rmSync(cwd, { recursive: true, force: true });
  });
});
