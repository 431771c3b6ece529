// Start this CLI again in the background and return once it says it is ready, so a script can wait
// for a long-running command (the mock) without guessing with `sleep`. Readiness is the child's own
// stdout: the caller says which text means "ready". Commands do not touch process.*; this does.
import { spawn } from 'node:child_process';
import { isSingleExecutable } from './build-info.js';
import type { Env } from './env.js';
import { InterruptedError, LocalEnvironmentError } from './errors.js';

export interface DetachOptions {
  /** The CLI's arguments for the child (without the flag that asked for the detach). */
  args: string[];
  env: Env;
  cwd: string;
  /** Whether the stdout written so far means the child is ready. */
  ready(stdout: string): boolean;
  /** Aborted on Ctrl-C while waiting: the child is stopped too. */
  signal: AbortSignal;
  /** How long to wait for readiness before giving up (and stopping the child). */
  timeoutMs: number;
  /** What the child is, for messages ("the mock"). */
  what: string;
}

export interface Detached {
  pid: number;
  /** The child's stdout up to readiness. */
  stdout: string;
}

/** The first `error:` line of a CLI's stderr (and its hint), or the whole text when there is none. */
function childError(stderr: string): { message: string | undefined; hint: string | undefined } {
  const lines = stderr.split('\n');
  const error = lines.find((line) => line.startsWith('error: '));
  const hint = lines.find((line) => line.startsWith('hint: '));
  return { message: error?.slice('error: '.length) ?? (stderr.trim() || undefined), hint: hint?.slice('hint: '.length) };
}

export function startDetached(options: DetachOptions): Promise<Detached> {
  // process.argv[1] is bin/appraisal.js (or the npm link to it): the same program, the same version.
  // The single executable is the program itself (its argv[1] repeats argv[0]).
  const script = isSingleExecutable() ? '' : process.argv[1];
  if (script === undefined)
    return Promise.reject(new LocalEnvironmentError(`cannot find this program to start ${options.what} in the background`));
  return new Promise((resolve, reject) => {
    // Its own process group: a Ctrl-C in the terminal it was started from does not reach it.
    // stderr is read only until readiness, then closed: the child's later notices are dropped
    // (its stderr swallows write errors), and nobody waiting on our pipes waits for it.
    const child = spawn(process.execPath, script === '' ? options.args : [script, ...options.args], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
      outcome();
    };
    const stop = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    };
    const onAbort = () => {
      stop();
      finish(() => reject(new InterruptedError()));
    };
    const timer = setTimeout(() => {
      stop();
      finish(() =>
        reject(new LocalEnvironmentError(`${options.what} did not start within ${Math.round(options.timeoutMs / 1000)} s (stopped it)`)),
      );
    }, options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (options.ready(stdout)) finish(() => resolve({ pid: child.pid!, stdout }));
    });
    child.stderr.on('data', (chunk: string) => {
      // Bounded: only the start matters (the error line and its hint).
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', (error) => finish(() => reject(new LocalEnvironmentError(`cannot start ${options.what}: ${error.message}`))));
    // 'close' comes after its stdio ended: the whole of its stderr is here.
    child.on('close', (code, signal) => {
      const { message, hint } = childError(stderr);
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      finish(() =>
        reject(new LocalEnvironmentError(message ? `${options.what}: ${message}` : `${options.what} ${how} before it was ready`, { hint })),
      );
    });
  });
}
