// Process entry. Kept tiny: `--version` answers without loading commander; everything else loads
// main.ts. This is the only module that touches process.* for streams, signals and the exit code.
import { isatty } from 'node:tty';
import { CREDENTIAL_VARIABLES } from '../core/child-env.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { readDistText } from './dist-files.js';
import { ownEnvironment } from './own-environment.js';

declare const __APPRAISAL_VERSION__: string;
const VERSION = typeof __APPRAISAL_VERSION__ === 'string' ? __APPRAISAL_VERSION__ : '0.0.0-dev';

/**
 * `appraisal PATH --help` (or -h) with stdout not a terminal: the text commander renders for it, from
 * dist/help.json written at build time (src/boot/help-render.ts), so neither commander nor the command's
 * modules load. A terminal (its width), an unknown path or any other argument goes through main().
 */
function prerenderedHelp(argv: readonly string[]): string | undefined {
  const last = argv[argv.length - 1];
  if ((last !== '--help' && last !== '-h') || process.stdout.isTTY) return undefined;
  const path = argv.slice(0, -1);
  if (path.some((word) => word.startsWith('-'))) return undefined;
  try {
    const texts = JSON.parse(readDistText('help.json')) as Record<string, string>;
    return Object.hasOwn(texts, path.join(' ')) ? texts[path.join(' ')] : undefined;
  } catch {
    // Not built with it (tests run the sources): commander renders it.
    return undefined;
  }
}

/**
 * SIGUSR1 would open Node's inspector on 127.0.0.1:9229: any local user who can signal this process
 * (the same uid, or root) could then run code inside it and read the key in memory. A listener of our
 * own replaces Node's (checked on Node 20, test/e2e/signals.test.ts); it is installed before anything
 * else runs, and the single executable keeps it because it runs this same entry.
 */
function refuseInspectorSignal(): void {
  process.on('SIGUSR1', () => {});
}

/** Every signal that asks us to stop: each one runs the same clean-up (partials, temp files, locks). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  refuseInspectorSignal();
  // `| head` closes stdout early: end quietly instead of throwing EPIPE. Any other failure to write
  // stdout (a full disk, a device error) must not crash with a stack trace: commands that stream
  // see it on their next write; for the rest it is reported once the command ends.
  let stdoutFailure: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    stdoutFailure ??= error;
  });
  // Nothing can be shown when stderr itself fails; the exit code still says what happened.
  process.stderr.on('error', () => {});
  const finish = async (code: number): Promise<number> => {
    // A failed write to stdout is reported by an 'error' event a tick later: let it arrive.
    await new Promise((resolve) => setImmediate(resolve));
    if (stdoutFailure && code === 0) {
      process.stderr.write(
        `error: could not write to stdout: ${fileErrorWords(stdoutFailure)}\nhint: check the file or device stdout goes to, or write with --out PATH\n`,
      );
      return 2;
    }
    return code;
  };

  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    process.exitCode = await finish(0);
    return;
  }
  const prerendered = prerenderedHelp(argv);
  if (prerendered !== undefined) {
    process.stdout.write(prerendered);
    process.exitCode = await finish(0);
    return;
  }
  // Loaded before the signal handlers exist: a Ctrl-C this early has nothing to clean up yet.
  const { main, InterruptedError } = await import('../main.js');
  // The V8 flags (v8-flags.ts) load with the command bundle, not for --version: node:v8 costs a start.
  const { favourSmallHeap } = await import('./v8-flags.js');
  const controller = new AbortController();
  let firstInterruptAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstInterruptAt === undefined) {
      firstInterruptAt = Date.now();
      controller.abort(new InterruptedError('interrupted', signal));
      return;
    }
    // A second Ctrl-C means "now": skip the clean-up. An exit hook in a dependency may re-raise
    // the first signal at once, so only a signal that comes later counts as a second one.
    if (Date.now() - firstInterruptAt > 300) process.exit(130);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  let code = await main({
    argv,
    // A copy: the key is then cleared from process.env and from what /proc/PID/environ shows (own-environment.ts).
    env: ownEnvironment(CREDENTIAL_VARIABLES),
    // Read on first use: process.stdin loads Node's file-stream modules, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    // The file descriptor asked, not process.stdin (which would create the stream): the same answer.
    stdinIsTTY: isatty(0),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    signal: controller.signal,
    version: VERSION,
    // What the application may ask of V8: a long export asks for a small heap (v8-flags.ts).
    favourSmallHeap,
  });
  code = await finish(code);
  process.exitCode = code;
  // Whatever still holds the event loop (a keep-alive socket, a stray timer) must not keep a
  // finished command alive.
  setTimeout(() => process.exit(code), 1000).unref();
  // Once nothing is left to do (no request, write or timer pending: 'beforeExit'), exit at once
  // rather than return: an ending event loop also tears down the environment and V8's heap, which
  // took ~14 ms more than `node -e 0`'s after a 20,000-record export (process.exit skips it).
  process.once('beforeExit', () => process.exit(code));
}
