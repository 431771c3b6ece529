// Running a command the user gave (`keys rotate --deliver CMD`): through the shell, with what it
// should read on stdin, an environment without credentials (child-env.ts), its output copied line
// by line to our stderr (redacted there), and a deadline after which the whole process group is
// killed — a pipeline `a | b` included.
import { spawn } from 'node:child_process';
import { lineForwarder } from './child-env.js';

export interface ChildCommand {
  /** A shell command line, as the user wrote it. */
  command: string;
  /** Written to the child's stdin, which is then closed. */
  input: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  /** One line of the child's stdout or stderr. */
  output(line: string): void;
  signal?: AbortSignal;
}

export type ChildOutcome = { ok: true } | { ok: false; reason: string };

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // Negative pid: the whole group the detached child leads.
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Runs the command to its end; never throws for the child's own failure (see `reason`). */
export function runChildCommand(options: ChildCommand): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const child = spawn(options.command, {
      shell: true,
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const out = lineForwarder(options.output);
    const err = lineForwarder(options.output);
    let timedOut = false;
    let settled = false;
    const finish = (outcome: ChildOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      out.flush();
      err.flush();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const onAbort = () => killGroup(child.pid);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => out.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.write(chunk));
    // A child that does not read its stdin must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
    child.on('error', (error) => finish({ ok: false, reason: `could not start: ${error.message}` }));
    child.on('close', (code, signal) => {
      if (timedOut) finish({ ok: false, reason: `timed out after ${Math.round(options.timeoutMs / 1000)}s` });
      else if (code === 0) finish({ ok: true });
      else if (code !== null) finish({ ok: false, reason: `exited with ${code}` });
      else finish({ ok: false, reason: `was killed by ${signal ?? 'a signal'}` });
    });
  });
}
