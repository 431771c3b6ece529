// Runs the built CLI on a real pseudo-terminal (util-linux `script`), for what only happens on a
// terminal: tables and csv for a person, prompts. The pty turns \n into \r\n; `screenText` (screen.ts) undoes that
// so a bare CR the CLI wrote is still visible to the checks.
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/spawn.js';
import { ROOT, cleanEnv } from '../helpers/env.js';
import { screenText } from './screen.js';

export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface PtyResult {
  code: number | null;
  /** Everything the terminal showed (stdout and stderr interleaved), line ends normalised. */
  screen: string;
}

/** `appraisal ARGS` with stdin, stdout and stderr on one pty; `stdin is the pty too. */
export function runOnPty(
  args: string[],
  env: Record<string, string | undefined>,
  options: { timeoutMs?: number } = {},
): Promise<PtyResult> {
  // A pty starts with zero rows and columns; give it the size of an ordinary terminal.
  const command = `stty rows 40 cols 120; ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    cwd: ROOT,
    env: cleanEnv({ TERM: 'xterm', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let raw = '';
  child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen: screenText(raw) });
    });
  });
}

export interface PtySession {
  /** What the terminal showed so far, line ends normalised. */
  screen(): string;
  /** Type on the keyboard (e.g. 'n\r', '\x03' for Ctrl-C, '\x04' for Ctrl-D). */
  type(keys: string): void;
  /** Resolves once the screen matches `pattern` (fails after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Exit code of the CLI, and the terminal's settings after it ended (`stty -a`). */
  result: Promise<PtyResult & { code: number | null }>;
}

/**
 * `appraisal ARGS` on a pty the test types into. After the CLI exits, `stty -a` runs on the same
 * terminal, so a test can check the CLI left it in its normal (cooked, echoing) mode.
 */
export function startOnPty(args: string[], env: Record<string, string | undefined>): PtySession {
  const cli = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const command = `stty rows 40 cols 120; ${cli}; code=$?; echo; echo "STTY: $(stty -a | tr -s ' ;' '\\n\\n' | grep -E -x -- '-?(icanon|echo)' | tr '\\n' ' ')"; exit $code`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    cwd: ROOT,
    env: cleanEnv({ TERM: 'xterm', ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    raw += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.stdin.on('error', () => {});
  const result = new Promise<PtyResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, screen: screenText(raw) });
    });
  });
  return {
    screen: () => screenText(raw),
    type: (keys) => void child.stdin.write(keys),
    waitFor: (pattern, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(screenText(raw))) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the terminal never showed ${pattern}; it shows: ${JSON.stringify(screenText(raw))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    result,
  };
}
