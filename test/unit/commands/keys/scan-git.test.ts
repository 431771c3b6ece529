// keys scan --git on a repository that is not ours (issue 26 §4): its .git/config names a textconv
// driver, an external diff, an fsmonitor hook and a signature program, each of which would write a
// marker file if git ran it. The scan still finds the key in the history, and no marker appears.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyPattern } from '../../../../src/commands/keys/scanning/find-in-files.js';
import { repositoryRoot, scanHistory } from '../../../../src/commands/keys/scanning/git-history.js';
import { tempDir } from '../../../helpers/temp.js';

const KEY = `apk_AbCd1234_${'k'.repeat(32)}`;
const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('keys scan --git runs nothing the scanned repository names', () => {
  it.runIf(hasGit && process.platform !== 'win32')(
    'textconv, diff.external, core.fsmonitor and gpg.program from the repository never run (git is on PATH here and in CI)',
    async () => {
      const root = tempDir('appraisal-scan-git-');
      const repo = join(root, 'repo');
      const markers = join(root, 'markers');
      const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
      execFileSync('git', ['init', '-q', repo]);
      git('config', 'user.email', 'a@example.test');
      git('config', 'user.name', 'a');
      writeFileSync(join(repo, '.gitattributes'), '*.txt diff=evil\n');
      writeFileSync(join(repo, 'notes.txt'), `the key ${KEY}\n`);
      git('add', '-A');
      git('commit', '-qm', 'add notes');
      // Set after the commit, as in a repository someone hands over: every one writes a marker.
      const marker = (name: string) => `sh -c 'mkdir -p ${markers}; touch ${join(markers, name)}; cat "$0" 2>/dev/null' `;
      git('config', 'diff.evil.textconv', marker('textconv'));
      git('config', 'diff.evil.command', marker('diff-command'));
      git('config', 'diff.external', marker('diff-external'));
      git('config', 'core.fsmonitor', marker('fsmonitor'));
      git('config', 'log.showSignature', 'true');
      git('config', 'gpg.program', marker('gpg'));

      // The attack is real: plain `git log -p` in this repository runs the textconv driver.
      execFileSync('git', ['-C', repo, 'log', '-p', '--all'], { stdio: 'ignore' });
      expect(existsSync(join(markers, 'textconv'))).toBe(true);
      execFileSync('rm', ['-rf', markers]);

      const run = { env: { PATH: process.env.PATH, HOME: root } };
      const top = await repositoryRoot(repo, run);
      const found = await scanHistory(top, keyPattern(undefined), run);
      expect(found.map((match) => [match.file.replace(/^[0-9a-f]{12}:/, ''), match.prefix])).toEqual([['notes.txt', 'apk_AbCd1234']]);
      expect(existsSync(markers)).toBe(false);
    },
  );
});
