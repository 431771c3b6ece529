// The one way a command the user gave is run (`watch --exec CMD`, `keys rotate --deliver CMD`,
// `keys lease -- CMD ARGS`): through the shell (a command line) or as an argument vector (no shell),
// with what it should read on stdin (given text, or our own stdin), an environment the caller built
// (child-env.ts), and its output either copied line by line to our stderr (redacted there) or passed
// through as bytes to our stdout and stderr, with one secret masked across chunk boundaries
// (secret-mask.ts).
//
// The child leads a process group of its own, so that everything it starts — a pipeline `a | b`
// included — is stopped together, and so that stopping it is ours to decide whichever way we were
// asked to stop: Ctrl-C in a terminal (which reaches only our foreground group), `kill -INT` or
// `kill -TERM` from a supervisor (which reaches only us). When the command's signal aborts, the
// group gets the signal we received — SIGINT for Ctrl-C, as a terminal would have sent it, SIGTERM
// for a supervisor's stop (the abort reason, an InterruptedError, says which) — and SIGKILL if it
// is still running `graceMs` later; at the deadline it gets SIGKILL; and if we exit at once (a
// second Ctrl-C), whatever is still running is killed on the way out, never left behind.
import { spawn, type StdioOptions } from 'node:child_process';
import { finished, type Readable, type Writable } from 'node:stream';
import { lineForwarder } from './child-env.js';
import { formatDuration } from './duration.js';
import { InterruptedError } from './errors.js';
import { secretMask } from './secret-mask.js';

/** The child's output passed through as bytes: stdout to `stdout`, stderr to `stderr`. */
export interface PassThroughOutput {
  stdout: Writable;
  stderr: Writable;
  /** Each secret replaced by its `replacement` wherever it appears, also split across chunks; none: bytes untouched. */
  masks?: ReadonlyArray<{ secret: string; replacement: string }> | undefined;
}

export interface ChildCommand {
  /** A shell command line, as the user wrote it; or an argument vector, run without a shell. */
  command: string | readonly string[];
  /** Written to the child's stdin, which is then closed (unless `stdin` says otherwise). */
  input?: string;
  /**
   * Instead of `input`: `'inherit'` gives the child our own stdin, a stream is piped into it (our
   * stdin when it is a terminal: a child in a process group of its own may not read the terminal).
   */
  stdin?: 'inherit' | Readable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Killed after this long; no deadline when undefined. */
  timeoutMs?: number | undefined;
  /** One line of the child's stdout or stderr; or its output passed through as bytes. */
  output: ((line: string) => void) | PassThroughOutput;
  /** Aborted on Ctrl-C or SIGTERM: the child gets that signal, then SIGKILL if it lingers. */
  signal?: AbortSignal;
  /** How long a signalled child has before SIGKILL (default INTERRUPT_GRACE_MS). */
  graceMs?: number;
  /** Called once the child runs, with its pid (its process group's id). */
  onStart?: (pid: number) => void;
}

export type ChildOutcome =
  { ok: true } | { ok: false; reason: string; code: number | null; signal: NodeJS.Signals | null; timedOut: boolean; interrupted: boolean };

/** How long an interrupted child has to finish before it is killed. */
export const INTERRUPT_GRACE_MS = 5_000;

const GROUPS = process.platform !== 'win32';

/** Process groups still running, killed if we exit without waiting for them. */
const running = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    // Negative pid: the whole group the detached child leads.
    process.kill(GROUPS ? -pid : pid, signal);
  } catch {
    // Already gone; or so new that it leads no group yet (a signal at once after spawn): then it alone.
    try {
      process.kill(pid, signal);
    } catch {
      // Gone.
    }
  }
}

function killRunningOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of running) signalGroup(pid, 'SIGKILL');
  });
}

function failureReason(
  code: number | null,
  signal: NodeJS.Signals | null,
  timeoutMs: number | undefined,
  timedOut: boolean,
  interrupted: boolean,
): string {
  if (timedOut) return `timed out after ${formatDuration(timeoutMs ?? 0)}`;
  if (interrupted) return 'was interrupted';
  if (code !== null) return `exited with code ${code}`;
  return `was killed by ${signal ?? 'a signal'}`;
}

/** The signal an abort passes on: the one that stopped us (SIGTERM, SIGHUP…), else SIGINT (Ctrl-C). */
function forwardedSignal(signal: AbortSignal | undefined): NodeJS.Signals {
  const reason: unknown = signal?.reason;
  return reason instanceof InterruptedError && reason.signal !== undefined ? reason.signal : 'SIGINT';
}

/** Where the child's stdout and stderr go, and a promise for the moment every byte was handed on. */
function connectOutput(
  child: { stdout: Readable; stderr: Readable },
  output: ChildCommand['output'],
): { flush(): void; drained: Promise<void> } {
  if (typeof output === 'function') {
    const out = lineForwarder(output);
    const err = lineForwarder(output);
    child.stdout.on('data', (chunk: Buffer) => out.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.write(chunk));
    return {
      flush: () => {
        out.flush();
        err.flush();
      },
      drained: Promise.resolve(),
    };
  }
  const pass = (from: Readable, to: Writable): Promise<void> => {
    const source = (output.masks ?? []).reduce<Readable>((stream, mask) => stream.pipe(secretMask(mask.secret, mask.replacement)), from);
    // Our stream stays open for whatever we write after the child.
    source.pipe(to, { end: false });
    return new Promise((resolve) => finished(source, () => resolve()));
  };
  const drained = Promise.all([pass(child.stdout, output.stdout), pass(child.stderr, output.stderr)]).then(() => undefined);
  return { flush: () => undefined, drained };
}

/** Runs the command to its end; never throws for the child's own failure (see `reason`). */
export function runChildCommand(options: ChildCommand): Promise<ChildOutcome> {
  // Interrupted before it started: nothing to run. (Started anyway, the signal could reach the child
  // before it leads its group and be lost, leaving it to the grace period's SIGKILL.)
  if (options.signal?.aborted) {
    return Promise.resolve({ ok: false, reason: 'was interrupted', code: null, signal: null, timedOut: false, interrupted: true });
  }
  killRunningOnExit();
  return new Promise((resolve) => {
    const stdio: StdioOptions = [options.stdin === 'inherit' ? 'inherit' : 'pipe', 'pipe', 'pipe'];
    const spawnOptions = { env: options.env, cwd: options.cwd, stdio, detached: GROUPS, windowsHide: true };
    const child =
      typeof options.command === 'string'
        ? spawn(options.command, { ...spawnOptions, shell: true })
        : spawn(options.command[0] ?? '', options.command.slice(1), { ...spawnOptions, shell: false });
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    if (pid !== undefined) options.onStart?.(pid);
    const output = connectOutput(child as { stdout: Readable; stderr: Readable }, options.output);
    let timedOut = false;
    let interrupted = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    const piped = typeof options.stdin === 'object' ? options.stdin : undefined;
    const finish = (outcome: ChildOutcome) => {
      if (settled) return;
      settled = true;
      if (pid !== undefined) running.delete(pid);
      clearTimeout(deadline);
      clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
      if (piped && child.stdin) {
        piped.unpipe(child.stdin);
        piped.pause();
      }
      output.flush();
      void output.drained.then(() => resolve(outcome));
    };
    if (options.timeoutMs !== undefined) {
      deadline = setTimeout(() => {
        timedOut = true;
        signalGroup(pid, 'SIGKILL');
      }, options.timeoutMs);
    }
    const onAbort = () => {
      interrupted = true;
      signalGroup(pid, forwardedSignal(options.signal));
      grace = setTimeout(() => signalGroup(pid, 'SIGKILL'), options.graceMs ?? INTERRUPT_GRACE_MS);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (child.stdin) {
      // A child that does not read its stdin must not crash us with EPIPE.
      child.stdin.on('error', () => undefined);
      if (piped) piped.pipe(child.stdin);
      else child.stdin.end(options.input ?? '');
    }
    const failed = (code: number | null, signal: NodeJS.Signals | null, reason?: string): ChildOutcome => ({
      ok: false,
      reason: reason ?? failureReason(code, signal, options.timeoutMs, timedOut, interrupted),
      code,
      signal,
      timedOut,
      interrupted,
    });
    child.on('error', (error) => finish(failed(null, null, `could not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (!timedOut && !interrupted && code === 0) finish({ ok: true });
      else finish(failed(code, signal));
    });
  });
}
