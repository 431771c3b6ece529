// The one way a test starts the built `appraisal` binary as a real process, for what only a
// process shows: signals, terminals, start-up, the bundle, the code cache, --detach, pipes and
// stdout failures. Everything else runs in process (test/helpers/run.ts). The child gets the clean
// environment of test/helpers/env.ts and no terminal; test/global-setup.ts made sure dist/ is not
// older than the sources.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, ROOT } from './env.js';
import { spawnMock, type MockOptions, type MockServer } from './mock.js';

export { cleanEnv, isolatedEnv, ROOT } from './env.js';
export const BIN = join(ROOT, 'bin', 'appraisal.js');
/** The build itself, for a test that reads it without starting it (importing it here marks the file as needing dist/). */
export const DIST = join(ROOT, 'dist');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOutcome extends CliResult {
  /** stdout as bytes (a download to stdout is not text). */
  stdoutBytes: Buffer;
}

export interface CliOptions {
  /** Over the clean environment (test/helpers/env.ts); undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed (the same name as run()'s). Without it stdin is closed at once. */
  stdin?: string | Buffer;
  /** Written to file descriptor 3, then closed (Node gives a child a socket there, not a pipe). */
  fd3?: string;
  /** Stdin is this file instead of a pipe (as under cron or `< file`); `stdin` is then ignored. */
  stdinFile?: string;
  /** stdout (or stderr) goes to this file instead of a pipe (e.g. /dev/full); it is then not collected. */
  stdoutFile?: string;
  stderrFile?: string;
  /** Started as `bash -c 'umask U; exec node bin/appraisal.js ARGS'`. */
  umask?: string;
  cwd?: string;
  /** The program and its first arguments, instead of `node bin/appraisal.js` (an installed copy, the executable). */
  program?: readonly string[];
  /** Killed (SIGKILL) when it runs longer (default 90 s). */
  timeoutMs?: number;
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  result: Promise<CliOutcome>;
}

/** Start `appraisal ARGS` and keep hold of it (to interrupt it, or act on the service while it runs). */
export function startCli(args: readonly string[], options: CliOptions = {}): RunningCli {
  const fds: number[] = [];
  const fileFd = (path: string | undefined, flags: string) => {
    if (path === undefined) return undefined;
    const fd = openSync(path, flags);
    fds.push(fd);
    return fd;
  };
  const stdin = fileFd(options.stdinFile, 'r') ?? 'pipe';
  const stdout = fileFd(options.stdoutFile, 'w') ?? 'pipe';
  const stderr = fileFd(options.stderrFile, 'w') ?? 'pipe';
  const program = options.program ?? [process.execPath, BIN];
  const [command, commandArgs] =
    options.umask === undefined
      ? [program[0]!, [...program.slice(1), ...args]]
      : ['bash', ['-c', `umask ${options.umask}; exec "$0" "$@"`, ...program, ...args]];
  const child = spawn(command, commandArgs, {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    stdio: options.fd3 === undefined ? [stdin, stdout, stderr] : [stdin, stdout, stderr, 'pipe'],
  });
  for (const fd of fds) closeSync(fd);
  if (options.fd3 !== undefined) (child.stdio[3] as NodeJS.WritableStream).end(options.fd3);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  if (child.stdin) {
    child.stdin.on('error', () => {});
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
  }
  const result = new Promise<CliOutcome>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, signal, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: Buffer.concat(err).toString('utf8') });
    });
  });
  return {
    child,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    result,
  };
}

/** Run `appraisal ARGS` as a process to its end. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliOutcome> {
  return startCli(args, options).result;
}

/** `appraisal mock` as its own process through bin/appraisal.js, for a test that needs the mock out of
 *  its own process (to stop it with a signal); the same MockServer as test/helpers/mock.ts's. */
export function startMockProcess(options: Omit<MockOptions, 'program'> = {}): Promise<MockServer> {
  return spawnMock([process.execPath, BIN], options);
}

// Pool moved to pool.ts (nothing spawned needs it); here for the tests that import it from this file.
export { Pool } from './pool.js';
