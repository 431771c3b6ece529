// IOStreams: the only owner of stdin/stdout/stderr and terminal detection. Commands write data to
// `stdout` and everything else through notice/warn/debug, which go to stderr (redacted).
import type { Readable, Writable } from 'node:stream';
import { CancelledError, InterruptedError } from './errors.js';
import { SecretRedactor } from './redact.js';
import { StreamWatch } from './stream-watch.js';
import { stderrText, terminalSafe } from './terminal-text.js';

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
  /** Aborted on SIGINT/SIGTERM: a prompt waiting for an answer ends with exit 130. */
  signal?: AbortSignal | undefined;
}

export class IO {
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
  /** Warnings already given by this run, by key (warnOnce). */
  private readonly warnedKeys = new Set<string>();
  private readonly signal: AbortSignal | undefined;
  private readonly options: IOOptions;
  private stdoutWatched: StreamWatch | undefined;

  constructor(options: IOOptions) {
    this.options = options;
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.stdinIsTTY = options.stdinIsTTY;
    this.stdoutIsTTY = options.stdoutIsTTY;
    this.stderrIsTTY = options.stderrIsTTY;
    this.color = options.color;
    this.quiet = options.quiet;
    this.verbose = options.verbose;
    this.noInput = options.noInput;
    this.signal = options.signal;
  }

  /**
   * Read from the options when first used, not before: the entry hands in process.stdin through a
   * getter, because reading it loads Node's file-stream modules (~2 ms of start-up) and most
   * commands never read stdin.
   */
  get stdin(): Readable {
    return this.options.stdin;
  }

  /**
   * What became of stdout while this run wrote to it (the reader went away, an error): watched from
   * the first output on, with one listener pair however many times output is written.
   */
  get stdoutWatch(): StreamWatch {
    return (this.stdoutWatched ??= new StreamWatch(this.stdout));
  }

  /** Prompts are allowed only with a terminal on both ends and without --no-input. */
  get canPrompt(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY && !this.noInput;
  }

  /** Progress spinners/bars only when a person is watching stderr. */
  get showProgress(): boolean {
    // A terminal of zero columns (an unsized pty, e.g. under `script`) would make a spinner redraw
    // forever: no progress there.
    const columns = (this.stderr as { columns?: number }).columns;
    return this.stderrIsTTY && !this.quiet && (columns === undefined || columns > 0);
  }

  /** Informational line on stderr; suppressed by --quiet. */
  notice(message: string): void {
    if (!this.quiet) this.writeErr(message);
  }

  /** Warning on stderr; shown even with --quiet, because it asks for attention. */
  warn(message: string): void {
    this.writeErr(`warning: ${message}`);
  }

  /**
   * A warning given at most once per run for `key` (the expiry of key apk_…: the command-wide notice
   * and `auth status` must not both say it). Returns whether it was written.
   */
  warnOnce(key: string, message: string): boolean {
    if (this.warnedKeys.has(key)) return false;
    this.warnedKeys.add(key);
    this.warn(message);
    return true;
  }

  /** Request/response trace for -v/--verbose. */
  debug(message: string): void {
    if (this.verbose) this.writeErr(message);
  }

  /** A stderr line (already formatted): redacted and made terminal-safe (terminal-text.ts), like every stderr line. */
  writeErr(line: string): void {
    this.stderr.write(stderrText(line.endsWith('\n') ? line : `${line}\n`, this.redactor));
  }

  /**
   * Our own styled rendering (a coloured table) whose service text was already made safe cell by
   * cell (output/table.ts safeText): redacted, colour sequences kept.
   */
  writeErrStyled(text: string): void {
    this.stderr.write(this.redactor.redact(text.endsWith('\n') ? text : `${text}\n`));
  }

  /**
   * Ask a yes/no question on the terminal; true only for y/yes. Callers check canPrompt first.
   * Ctrl-C throws InterruptedError (exit 130), Ctrl-D CancelledError; the terminal is restored.
   */
  async confirm(question: string): Promise<boolean> {
    const answer = await this.readLine(`${question} [y/N] `, false);
    return /^y(es)?$/i.test(answer.trim());
  }

  /** Read a secret from the terminal without echoing it; Ctrl-C / Ctrl-D as for confirm(). */
  async promptSecret(question: string): Promise<string> {
    return (await this.readLine(question, true)).trim();
  }

  private async readLine(question: string, hidden: boolean): Promise<string> {
    const { createInterface } = await import('node:readline');
    if (this.signal?.aborted) throw new InterruptedError();
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
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      // Every way out closes the interface (which takes the terminal out of raw mode) and ends the
      // prompt's line, so the shell prompt or the error starts on a fresh line.
      const settle = (outcome: () => void, newline: boolean) => {
        if (settled) return;
        settled = true;
        this.signal?.removeEventListener('abort', onAbort);
        rl.close();
        if (newline) this.stderr.write('\n');
        outcome();
      };
      const onAbort = () => settle(() => reject(new InterruptedError()), true);
      // In raw mode Ctrl-C reaches readline, not the process: it is still an interrupt.
      rl.on('SIGINT', () => settle(() => reject(new InterruptedError()), true));
      // Ctrl-D on an empty line, or stdin closed: no answer.
      rl.on('close', () => settle(() => reject(new CancelledError('cancelled: no answer was given (end of input)')), true));
      this.signal?.addEventListener('abort', onAbort, { once: true });
      rl.question(terminalSafe(question), (answer) => settle(() => resolve(answer), hidden));
    });
  }
}
