// `keys scan --git`: the history of a git repository, every commit of every branch and tag (`git
// log --all -p`), scanned line by line as it streams — a key removed long ago is still in the
// history, and still live until revoked. git runs without any credential in its environment.
// The repository is not trusted (issue 26 §4): its .git/config and .gitattributes could name a
// textconv driver, an external diff, an fsmonitor hook or a signature program that git would run.
// Every git call here turns each of them off (NEUTRAL, and --no-textconv --no-ext-diff on log).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { UsageError } from '../../../core/errors.js';
import { matchesIn, type KeyPattern, type Match } from './find-in-files.js';

export interface GitRun {
  env: NodeJS.ProcessEnv;
}

/** Settings that keep the scanned repository's own config from running anything. */
export const NEUTRAL: readonly string[] = [
  '--no-pager',
  ...['core.quotePath=false', 'core.fsmonitor=false', 'diff.external=', 'log.showSignature=false', 'core.hooksPath=/dev/null'].flatMap(
    (setting) => ['-c', setting],
  ),
];

function git(args: readonly string[], cwd: string, run: GitRun) {
  return spawn('git', [...NEUTRAL, ...args], { cwd, env: run.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
}

/** The top directory of the repository `path` is in. */
export function repositoryRoot(path: string, run: GitRun): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = git(['rev-parse', '--show-toplevel'], path, run);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', (error) => reject(new UsageError(`--git needs git: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0 && out.trim() !== '') resolve(out.trim());
      else reject(new UsageError(`--git: ${path} is not in a git repository (${err.trim().split('\n')[0] ?? `git exited with ${code}`})`));
    });
  });
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Every match in lines added by any commit of the repository at `root`. */
export function scanHistory(root: string, pattern: KeyPattern, run: GitRun): Promise<Match[]> {
  return new Promise((resolve, reject) => {
    const child = git(
      ['log', '--all', '-p', '-U0', '--no-color', '--no-renames', '--no-ext-diff', '--no-textconv', '--format=@@@commit %H'],
      root,
      run,
    );
    const found: Match[] = [];
    let commit = '';
    let file: string | undefined;
    let line = 0;
    let afterMinusHeader = false;
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8').slice(0, 2000)));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (text) => {
      if (text.startsWith('@@@commit ')) {
        commit = text.slice(10, 22);
        file = undefined;
      } else if (text.startsWith('diff --git ')) {
        file = undefined;
      } else if (text.startsWith('--- ') && file === undefined) {
        afterMinusHeader = true;
        return;
      } else if (afterMinusHeader && text.startsWith('+++ ')) {
        const target = text.slice(4);
        file = target === '/dev/null' ? undefined : target.replace(/^b\//, '');
      } else if (text.startsWith('@@ ')) {
        line = Number(HUNK.exec(text)?.[1] ?? 0);
      } else if (text.startsWith('+') && file !== undefined) {
        const content = text.slice(1);
        if (pattern.marker === undefined || content.includes('apk_'))
          found.push(...matchesIn(content, pattern, `${commit}:${file}`, commit, line));
        line++;
      }
      afterMinusHeader = false;
    });
    child.on('error', (error) => reject(new UsageError(`--git needs git: ${error.message}`)));
    // Done when git has exited and every line it wrote has been read.
    const exited = new Promise<number | null>((done) => child.on('close', done));
    const read = new Promise<void>((done) => lines.on('close', done));
    void Promise.all([exited, read]).then(([code]) => {
      if (code === 0) resolve(found);
      else reject(new UsageError(`git log failed in ${root}: ${err.trim().split('\n')[0] ?? `exit ${code}`}`));
    });
  });
}
