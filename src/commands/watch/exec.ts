// --exec CMD: run CMD through the shell once per event, the event's JSON line on its stdin. Its own
// output goes to our stderr, so stdout stays a clean NDJSON stream of handled events.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { Env } from '../../core/env.js';
import { LocalEnvironmentError } from '../../core/errors.js';

export interface ExecResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ExecOptions {
  command: string;
  input: string;
  env: Env;
  cwd: string;
  /** Receives the command's stdout and stderr. */
  output: Writable;
}

export function runShellCommand(options: ExecOptions): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, {
      shell: true,
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const forward = (chunk: Buffer) => options.output.write(chunk);
    child.stdout.on('data', forward);
    child.stderr.on('data', forward);
    child.once('error', (error) => reject(new LocalEnvironmentError(`cannot run --exec command: ${error.message}`)));
    child.once('close', (code, signal) => resolve({ code, signal }));
    // A command that does not read its stdin closes the pipe early: not a failure of ours.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}
