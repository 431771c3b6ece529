// A real terminal for tests: an interactive program in a tmux session on its own server (its own
// socket, `tmux -L <unique>`, under a private TMUX_TMPDIR), keys typed with send-keys, the screen
// read back with capture-pane. Waits are for the expected text, with a deadline, never fixed sleeps.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Whether a program is on PATH. */
export function installed(program: string): boolean {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', program], { stdio: 'ignore' }).status === 0;
}

/**
 * Whether a test that needs these programs runs, and the reason when it does not: outside CI a missing
 * program is a visible skip with its reason in the test name; under CI=true the test runs and fails,
 * since .ci/run installs every one of them.
 */
export function requires(...programs: string[]): { skip: boolean; reason: string; missing: string[] } {
  const missing = programs.filter((program) => !installed(program));
  const reason = missing.length === 0 ? '' : ` [skipped: ${missing.join(', ')} not installed; .ci/run installs them]`;
  return { skip: missing.length > 0 && process.env.CI !== 'true', reason, missing };
}

export interface Terminal {
  /** Type literal text. */
  type(text: string): Promise<void>;
  /** Press keys by tmux name (Tab, Enter, C-c). */
  press(...keys: string[]): Promise<void>;
  /** The visible screen, as text. */
  screen(): Promise<string>;
  /** The line the cursor is on, without trailing blanks. */
  cursorLine(): Promise<string>;
  /** Wait until `check(screen)` holds; fail after the deadline with the screen in the message. */
  waitForScreen(check: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Wait until the cursor's line is exactly `expected` (trailing blanks ignored). */
  waitForLine(expected: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface TerminalOptions {
  /** The command line tmux runs in the window (a shell, usually). */
  command: string[];
  env: Record<string, string>;
  cwd: string;
  columns?: number;
  rows?: number;
}

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export async function openTerminal(options: TerminalOptions): Promise<Terminal> {
  const dir = mkdtempSync(join(tmpdir(), 'terminal-'));
  const socket = `appraisal-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  // The server takes its environment from the first client: that is the shell's environment.
  const env = { ...options.env, TMUX_TMPDIR: dir };
  delete (env as Record<string, string | undefined>).TMUX;
  const tmux = async (...args: string[]) =>
    (await run('tmux', ['-L', socket, '-f', '/dev/null', ...args], { env, cwd: options.cwd })).stdout;
  await tmux(
    'new-session',
    '-d',
    '-s',
    'test',
    '-x',
    String(options.columns ?? 160),
    '-y',
    String(options.rows ?? 40),
    options.command.map(shellQuote).join(' '),
  );
  const screen = () => tmux('capture-pane', '-p', '-t', 'test');
  const terminal: Terminal = {
    type: async (text) => void (await tmux('send-keys', '-t', 'test', '-l', text)),
    press: async (...keys) => void (await tmux('send-keys', '-t', 'test', ...keys)),
    screen,
    cursorLine: async () => {
      // One tmux client for both (`;` chains commands): the screen and the cursor's row of the same
      // moment, and half the processes a wait polls with.
      const out = await tmux('capture-pane', '-p', '-t', 'test', ';', 'display-message', '-p', '-t', 'test', '#{cursor_y}');
      const body = out.replace(/\n$/, '');
      const cut = body.lastIndexOf('\n');
      return (body.slice(0, cut + 1).split('\n')[Number(body.slice(cut + 1).trim())] ?? '').trimEnd();
    },
    waitForScreen: async (check, what, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = await screen();
        if (check(text)) return text;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    waitForLine: async (expected, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = await terminal.cursorLine();
        if (line === expected) return;
        if (Date.now() > deadline) {
          throw new Error(
            `timed out after ${timeoutMs} ms waiting for the line ${JSON.stringify(expected)}; it is ${JSON.stringify(line)}; the screen:\n${await screen()}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: async () => {
      await tmux('kill-server').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return terminal;
}
