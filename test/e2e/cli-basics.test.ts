import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/env.js';
import { run } from '../helpers/run.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

// In process (test/helpers/run.ts); the built binary's version and help: help-prerendered.test.ts.
describe('appraisal basics', () => {
  it('prints its version', async () => {
    const result = await run(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('prints help listing the nouns and examples', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('props|properties');
    expect(result.stdout).toContain('Examples:');
  });

  it("lists only the options a command takes; another command's option is exit 2 naming it", async () => {
    const [create, mock, refused, before] = await Promise.all([
      run(['props', 'create', '--help']),
      run(['mock', '--help']),
      run(['mock', '--page', '3']),
      run(['--page-size', '3', 'profiles', 'use', 'x']),
    ]);
    expect(create.stdout).toContain('--fields');
    expect(create.stdout).not.toMatch(/--page|--concurrency|--max-items/);
    expect(mock.stdout).not.toMatch(/--profile|--output|--page/);
    expect(mock.stdout).toContain('--verbose');
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --page does not apply to `appraisal mock`\nhint: run `appraisal mock --help` for the options it takes\n',
    });
    expect(before).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --page-size does not apply to `appraisal profiles use`\n/),
    });
  });

  it('rejects an unknown command with exit 2 and one error line', async () => {
    const result = await run(['bogus']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe("error: unknown command 'bogus'");
  });

  it('prints the exit code table', async () => {
    const result = await run(['help', 'exit-codes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\s+10\s+refused for safety/m);
    expect(result.stdout).toMatch(/^\s+130\s+interrupted/m);
  });
});
