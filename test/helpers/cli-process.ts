// The built binary as a child process the test keeps hold of (to interrupt it, or to act on the
// service while it runs), the error-shape checks every failing run must pass, and a small pool that
// bounds how many CLI processes run at once on a two-core machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, type CliOptions, type CliResult, ROOT } from './cli.js';

/** Exit codes CLI.md documents, but 130 (only after a signal) and 1 ("a bug": never acceptable). */
export const DOCUMENTED_EXIT_CODES: ReadonlySet<number> = new Set([0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 21]);

export interface CliOutcome extends CliResult {
  /** stdout as bytes (a download to stdout is not text). */
  stdoutBytes: Buffer;
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  result: Promise<CliOutcome>;
}

/** The parent's environment without anything that would steer the CLI (APPRAISAL_*, proxies, NO_COLOR). */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (key.startsWith('APPRAISAL_') || key === 'NO_COLOR' || /_PROXY$/i.test(key)) continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Start `appraisal ARGS`; stdin gets `input` (then closes) or closes at once. */
export function startCli(args: string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin!.on('error', () => {});
  if (options.input !== undefined) child.stdin!.end(options.input);
  else child.stdin!.end();
  const result = new Promise<CliOutcome>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, signal, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: Buffer.concat(err).toString('utf8') });
    });
  });
  return { child, stderr: () => Buffer.concat(err).toString('utf8'), result };
}

/**
 * What is wrong with how a run ended, as a list of complaints (empty: fine). A run must exit with a
 * documented code, never print a stack trace, and when it fails, end stderr with exactly one
 * `error:` line, optionally followed by one `hint:` line.
 */
export function exitProblems(result: CliResult, options: { interrupted?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (result.code === null) problems.push(`killed by ${result.signal ?? 'a signal'} (hung?)`);
  else if (!DOCUMENTED_EXIT_CODES.has(result.code) && !(options.interrupted && result.code === 130)) {
    problems.push(`exit ${result.code} is not a documented code`);
  }
  if (/\n\s+at /.test(result.stderr) || /^\s*at .+:\d+:\d+\)?$/m.test(result.stderr)) problems.push('a stack trace on stderr');
  if (/unexpected failure|this is a bug/i.test(result.stderr)) problems.push('an "unexpected failure" report');
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  const errorLines = lines.filter((line) => line.startsWith('error:'));
  if (result.code !== 0 && result.code !== null) {
    const last = lines.at(-1) ?? '';
    const tail = last.startsWith('hint:') ? lines.slice(-2) : lines.slice(-1);
    if (errorLines.length !== 1) problems.push(`${errorLines.length} "error:" lines instead of one`);
    if (!tail[0]?.startsWith('error:')) problems.push('stderr does not end with "error: …" (+ an optional "hint: …")');
  } else if (result.code === 0 && errorLines.length > 0) {
    problems.push('"error:" printed by a run that succeeded');
  }
  return problems;
}

const scratchDirs: string[] = [];

/** A fresh private directory, removed by removeScratchDirs(). */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `appraisal-${prefix}-`));
  scratchDirs.push(dir);
  return dir;
}

/** Remove every directory scratchDir() made in this test file (call it from afterAll). */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every entry of a directory (hidden ones too): what a failed export must not leave behind. */
export function entriesOf(dir: string): string[] {
  return readdirSync(dir).sort();
}

/**
 * entriesOf without the pair a failed resumable export keeps beside --out on purpose
 * (`.NAME.partial` with its `.NAME.checkpoint`); either one alone stays listed, so a test still fails.
 */
export function entriesBesidePartial(dir: string): string[] {
  const entries = entriesOf(dir);
  const pairs = new Set(
    entries.flatMap((entry) => {
      const name = /^\.(.+)\.partial$/.exec(entry)?.[1];
      return name !== undefined && entries.includes(`.${name}.checkpoint`) ? [entry, `.${name}.checkpoint`] : [];
    }),
  );
  return entries.filter((entry) => !pairs.has(entry));
}

/** Run at most `size` tasks at once; each gets one of the `resources` for itself while it runs. */
export class Pool<R> {
  private readonly idle: R[];
  private readonly waiting: Array<(resource: R) => void> = [];

  constructor(resources: readonly R[]) {
    this.idle = [...resources];
  }

  async use<T>(task: (resource: R) => Promise<T>): Promise<T> {
    const resource = this.idle.pop() ?? (await new Promise<R>((resolve) => this.waiting.push(resolve)));
    try {
      return await task(resource);
    } finally {
      const next = this.waiting.shift();
      if (next) next(resource);
      else this.idle.push(resource);
    }
  }
}
