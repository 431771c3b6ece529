// The one way a command the user gave is run (`watch --exec CMD`, `keys rotate --deliver CMD`):
// through the shell, with what it should read on stdin, an environment without credentials
// (child-env.ts, built by the caller), its output copied line by line to our stderr (redacted there).
//
// The child leads a process group of its own, so that everything it starts — a pipeline `a | b`
// included — is stopped together, and so that stopping it is ours to decide whichever way we were
// asked to stop: Ctrl-C in a terminal (which reaches only our foreground group), `kill -INT` or
// `kill -TERM` from a supervisor (which reaches only us). On the command's signal (our Ctrl-C) the
// group gets SIGINT, as a terminal would have sent it, and SIGKILL if it is still running
// INTERRUPT_GRACE_MS later; at the deadline it gets SIGKILL; and if we exit at once (a second
// Ctrl-C), whatever is still running is killed on the way out, never left behind.
import { spawn } from 'node:child_process';
import { lineForwarder } from './child-env.js';
import { formatDuration } from './duration.js';

export interface ChildCommand {
  /** A shell command line, as the user wrote it. */
  command: string;
  /** Written to the child's stdin, which is then closed. */
  input: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Killed after this long; no deadline when undefined. */
  timeoutMs?: number | undefined;
  /** One line of the child's stdout or stderr. */
  output(line: string): void;
  /** Aborted on Ctrl-C: the child is interrupted (SIGINT), then killed if it lingers. */
  signal?: AbortSignal;
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
    // Already gone.
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

/** Runs the command to its end; never throws for the child's own failure (see `reason`). */
export function runChildCommand(options: ChildCommand): Promise<ChildOutcome> {
  killRunningOnExit();
  return new Promise((resolve) => {
    const child = spawn(options.command, {
      shell: true,
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: GROUPS,
      windowsHide: true,
    });
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    const out = lineForwarder(options.output);
    const err = lineForwarder(options.output);
    let timedOut = false;
    let interrupted = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    const finish = (outcome: ChildOutcome) => {
      if (settled) return;
      settled = true;
      if (pid !== undefined) running.delete(pid);
      clearTimeout(deadline);
      clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
      out.flush();
      err.flush();
      resolve(outcome);
    };
    if (options.timeoutMs !== undefined) {
      deadline = setTimeout(() => {
        timedOut = true;
        signalGroup(pid, 'SIGKILL');
      }, options.timeoutMs);
    }
    const onAbort = () => {
      interrupted = true;
      signalGroup(pid, 'SIGINT');
      grace = setTimeout(() => signalGroup(pid, 'SIGKILL'), INTERRUPT_GRACE_MS);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => out.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.write(chunk));
    // A child that does not read its stdin must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
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
