// --exec CMD: run CMD through the shell once per event, the event's JSON line on its stdin. Its own
// output goes to our stderr line by line (redacted and sanitised like every stderr line), so stdout
// stays a clean NDJSON stream of handled events. Its environment comes from core/child-env.ts: no
// credential is ever passed on.
import { spawn } from 'node:child_process';
import { lineForwarder } from '../../core/child-env.js';
import { LocalEnvironmentError } from '../../core/errors.js';

export interface ExecResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ExecOptions {
  command: string;
  input: string;
  /** Already scrubbed by childEnvironment(). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Receives each line of the command's stdout and stderr. */
  writeLine(line: string): void;
}

export function runShellCommand(options: ExecOptions): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, {
      shell: true,
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // One forwarder per stream, so a line is never assembled from both.
    const out = lineForwarder(options.writeLine);
    const err = lineForwarder(options.writeLine);
    child.stdout.on('data', (chunk: Buffer) => out.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.write(chunk));
    child.once('error', (error) => reject(new LocalEnvironmentError(`cannot run --exec command: ${error.message}`)));
    child.once('close', (code, signal) => {
      out.flush();
      err.flush();
      resolve({ code, signal });
    });
    // A command that does not read its stdin closes the pipe early: not a failure of ours.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}
