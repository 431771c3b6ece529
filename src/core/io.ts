// IOStreams: the only owner of stdin/stdout/stderr and terminal detection. Commands write data to
// `stdout` and everything else through notice/warn/debug, which go to stderr (redacted).
import type { Readable, Writable } from 'node:stream';
import { SecretRedactor } from './redact.js';

export interface IOOptions {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  /** --no-input / APPRAISAL_NO_INPUT: never prompt. */
  noInput: boolean;
}

export class IO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly color: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly noInput: boolean;
  readonly redactor = new SecretRedactor();

  constructor(options: IOOptions) {
    this.stdin = options.stdin;
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.stdinIsTTY = options.stdinIsTTY;
    this.stdoutIsTTY = options.stdoutIsTTY;
    this.stderrIsTTY = options.stderrIsTTY;
    this.color = options.color;
    this.quiet = options.quiet;
    this.verbose = options.verbose;
    this.noInput = options.noInput;
  }

  /** Prompts are allowed only with a terminal on both ends and without --no-input. */
  get canPrompt(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY && !this.noInput;
  }

  /** Progress spinners/bars only when a person is watching stderr. */
  get showProgress(): boolean {
    return this.stderrIsTTY && !this.quiet;
  }

  /** Informational line on stderr; suppressed by --quiet. */
  notice(message: string): void {
    if (!this.quiet) this.writeErr(message);
  }

  /** Warning on stderr; shown even with --quiet, because it asks for attention. */
  warn(message: string): void {
    this.writeErr(`warning: ${message}`);
  }

  /** Request/response trace for -v/--verbose. */
  debug(message: string): void {
    if (this.verbose) this.writeErr(message);
  }

  /** Raw stderr line (already formatted), still redacted. */
  writeErr(line: string): void {
    this.stderr.write(this.redactor.redact(line.endsWith('\n') ? line : `${line}\n`));
  }

  /** Ask a yes/no question on the terminal. Callers check canPrompt first. */
  async confirm(question: string): Promise<boolean> {
    const answer = await this.readLine(`${question} [y/N] `, false);
    return /^y(es)?$/i.test(answer.trim());
  }

  /** Read a secret from the terminal without echoing it. */
  async promptSecret(question: string): Promise<string> {
    return (await this.readLine(question, true)).trim();
  }

  private async readLine(question: string, hidden: boolean): Promise<string> {
    const { createInterface } = await import('node:readline');
    const rl = createInterface({ input: this.stdin, output: this.stderr, terminal: true });
    if (hidden) {
      // Suppress the echo of typed characters; the prompt itself is written once.
      const rlWithOutput = rl as unknown as { _writeToOutput: (s: string) => void };
      let prompted = false;
      rlWithOutput._writeToOutput = (s: string) => {
        if (!prompted) {
          this.stderr.write(s);
          prompted = true;
        }
      };
    }
    try {
      return await new Promise<string>((resolve) => rl.question(question, resolve));
    } finally {
      if (hidden) this.stderr.write('\n');
      rl.close();
    }
  }
}
