// Runs the built CLI on a real pseudo-terminal (util-linux `script`), for what only happens on a
// terminal: tables and csv for a person, prompts. The pty turns \n into \r\n; `screenText` undoes that
// so a bare CR the CLI wrote is still visible to the checks.
import { spawn } from 'node:child_process';
import { BIN, ROOT } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/cli-process.js';

export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface PtyResult {
  code: number | null;
  /** Everything the terminal showed (stdout and stderr interleaved), line ends normalised. */
  screen: string;
}

/** What a terminal shows, with the pty's CR LF line ends back to LF (a lone CR stays). */
export function screenText(raw: string): string {
  return raw.replace(/\r+\n/g, '\n');
}

/** `appraisal ARGS` with stdin, stdout and stderr on one pty; `stdin is the pty too. */
export function runOnPty(args: string[], env: Record<string, string | undefined>, options: { timeoutMs?: number } = {}): Promise<PtyResult> {
  // A pty starts with zero rows and columns; give it the size of an ordinary terminal.
  const command = `stty rows 40 cols 120; ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: ROOT, env: cleanEnv({ TERM: 'xterm', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
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
