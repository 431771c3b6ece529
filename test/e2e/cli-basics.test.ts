import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('appraisal binary basics', () => {
  it('prints its version', async () => {
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('prints help listing the nouns and examples', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('props|properties');
    expect(result.stdout).toContain('Examples:');
  });

  it('rejects an unknown command with exit 2 and one error line', async () => {
    const result = await runCli(['bogus']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe("error: unknown command 'bogus'");
  });

  it('prints the exit code table', async () => {
    const result = await runCli(['help', 'exit-codes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\s+10\s+refused for safety/m);
    expect(result.stdout).toMatch(/^\s+130\s+interrupted/m);
  });
});
