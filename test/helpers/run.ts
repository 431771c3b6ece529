// Runs `appraisal ARGS` in this test process, like wrangler's runWrangler(): main() from the
// TypeScript sources (so a test runs the code you changed, with no build in between) over in-memory
// streams, with a clean environment and its own abort signal. No child process: a command test
// costs milliseconds instead of a Node start-up. Only what a real process shows (signals, a
// terminal, start-up, the bundle, the code cache, --detach, pipes, stdout failures) is spawned
// (test/helpers/spawn.ts).
//
//   const result = await run(['props', 'list', '-o', 'csv'], { env: { ...mock.env, ...isolatedEnv() } });
//   expect(result.code).toBe(0);
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearLine, clearScreenDown, cursorTo, moveCursor } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/main.js';
import { cleanEnv, ROOT } from './env.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export interface RunOptions {
  /** Over the parent's environment without APPRAISAL_*, proxies and NO_COLOR; undefined removes one. */
  env?: Record<string, string | undefined>;
  /** What the command reads from stdin (then end of input); a stream of the test's own; by default
   *  stdin is empty and ended, as a spawned CLI's closed pipe. */
  stdin?: string | Buffer | Readable;
  /** Stdin is read from this file (as under cron or `< file`). */
  stdinFile?: string;
  /** Which streams are terminals: true for all three, or each on its own (default: none). */
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** Terminal width of stdout/stderr when they are terminals (default 80). */
  columns?: number;
  /** The clock the command reads (ctx.now()). */
  now?: () => Date;
  /** Working directory the command is given (default: the repository). */
  cwd?: string;
  /** Abort it, as Ctrl-C does in a real process (the command gets an InterruptedError). */
  signal?: AbortSignal;
  /** What the process entry hands main() to ask V8 for a small heap (src/boot/v8-flags.ts); none by default. */
  favourSmallHeap?: () => void;
}

export interface RunResult {
  code: number;
  /** Never killed by a signal: here for the same shape as a spawned run's (exitProblems reads it). */
  signal: null;
  stdout: string;
  /** stdout as bytes (a download to stdout is not text). */
  stdoutBytes: Buffer;
  stderr: string;
}

interface Capture {
  stream: PassThrough & { isTTY?: boolean; columns?: number };
  bytes(): Buffer;
}

function capture(tty: boolean, columns: number): Capture {
  const stream: Capture['stream'] = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  // What a spinner or a prompt asks of a terminal (tty.WriteStream), as escape codes into the capture.
  if (tty) {
    Object.assign(stream, {
      isTTY: true,
      columns,
      rows: 24,
      getWindowSize: () => [columns, 24],
      getColorDepth: () => 8,
      hasColors: (count = 16) => count <= 256,
      cursorTo: (x: number, y?: number, done?: () => void) => cursorTo(stream, x, y, done),
      moveCursor: (dx: number, dy: number, done?: () => void) => moveCursor(stream, dx, dy, done),
      clearLine: (dir: -1 | 0 | 1, done?: () => void) => clearLine(stream, dir, done),
      clearScreenDown: (done?: () => void) => clearScreenDown(stream, done),
    });
  }
  return { stream, bytes: () => Buffer.concat(chunks) };
}

function stdinOf(options: RunOptions): Readable {
  if (options.stdinFile !== undefined) return createReadStream(options.stdinFile);
  if (options.stdin instanceof Readable) return options.stdin;
  const stream = new PassThrough();
  stream.end(options.stdin ?? '');
  return stream;
}

function ttys(tty: RunOptions['tty']): { stdin: boolean; stdout: boolean; stderr: boolean } {
  if (typeof tty === 'boolean' || tty === undefined) return { stdin: !!tty, stdout: !!tty, stderr: !!tty };
  return { stdin: tty.stdin ?? false, stdout: tty.stdout ?? false, stderr: tty.stderr ?? false };
}

export interface RunningCommand {
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** stdout as it is written, for a reader of a protocol on it (an MCP client): each chunk as it comes. */
  stdoutStream: Readable;
  /** Ctrl-C, as the run's own abort signal (the command gets an InterruptedError). */
  interrupt(): void;
  result: Promise<RunResult>;
}

/** Run the CLI in process and collect what it wrote and the exit code main() returned. */
export function run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return start(argv, options).result;
}

/** Start the CLI in process and keep hold of it: read what it wrote so far, act on the service while it runs, interrupt it. */
export function start(argv: readonly string[], options: RunOptions = {}): RunningCommand {
  const tty = ttys(options.tty);
  const columns = options.columns ?? 80;
  const out = capture(tty.stdout, columns);
  const err = capture(tty.stderr, columns);
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  let stdin: Readable | undefined;
  const result = (async (): Promise<RunResult> => {
    try {
      const code = await main({
        argv: [...argv],
        env: cleanEnv(options.env),
        // Made when first read, as the real entry does (process.stdin).
        get stdin() {
          return (stdin ??= stdinOf(options));
        },
        stdout: out.stream,
        stderr: err.stream,
        stdinIsTTY: tty.stdin,
        stdoutIsTTY: tty.stdout,
        stderrIsTTY: tty.stderr,
        cwd: options.cwd ?? ROOT,
        signal: controller.signal,
        version: VERSION,
        now: options.now,
        favourSmallHeap: options.favourSmallHeap,
      });
      // Writes still queued in the streams arrive before the result is read.
      await new Promise((resolve) => setImmediate(resolve));
      const stdoutBytes = out.bytes();
      return { code, signal: null, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: err.bytes().toString('utf8') };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      stdin?.destroy();
    }
  })();
  return {
    stdout: () => out.bytes().toString('utf8'),
    stderr: () => err.bytes().toString('utf8'),
    stdoutStream: out.stream,
    interrupt: () => controller.abort(),
    result,
  };
}
