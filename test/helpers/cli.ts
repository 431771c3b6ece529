// Spawns the built `appraisal` binary the way a user would, with a clean environment: no inherited
// APPRAISAL_* variables, a private HOME and config dir, and no terminal.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'appraisal.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. Without it stdin is closed at once. */
  input?: string | Buffer;
  /** Stdin is this file instead of a pipe (as under cron or `< file`); `input` is then ignored. */
  stdinFile?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** A fresh, private HOME/config dir for one test (so no test sees another's profiles). */
export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const home = tempDir('appraisal-home-');
  return { HOME: home, APPRAISAL_CONFIG_DIR: join(home, 'config'), XDG_CONFIG_HOME: join(home, '.config'), ...extra };
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (key.startsWith('APPRAISAL_') || key === 'NO_COLOR' || /_PROXY$/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = { ...baseEnv(), ...options.env };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const stdinFd = options.stdinFile === undefined ? undefined : openSync(options.stdinFile, 'r');
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
    });
    if (stdinFd !== undefined) closeSync(stdinFd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    if (!child.stdin) return;
    child.stdin.on('error', () => {});
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
