// Process entry. Kept tiny: `--version` answers without loading commander; everything else loads
// main.ts. This is the only module that touches process.* for streams, signals and the exit code.
declare const __APPRAISAL_VERSION__: string;
const VERSION = typeof __APPRAISAL_VERSION__ === 'string' ? __APPRAISAL_VERSION__ : '0.0.0-dev';

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  // `| head` closes stdout early: end quietly instead of throwing EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  // Loaded before the signal handlers exist: a Ctrl-C this early has nothing to clean up yet.
  const { main, InterruptedError } = await import('./main.js');
  const controller = new AbortController();
  let firstInterruptAt: number | undefined;
  const onSignal = () => {
    if (firstInterruptAt === undefined) {
      firstInterruptAt = Date.now();
      controller.abort(new InterruptedError());
      return;
    }
    // A second Ctrl-C means "now": skip the clean-up. An exit hook in a dependency may re-raise
    // the first signal at once, so only a signal that comes later counts as a second one.
    if (Date.now() - firstInterruptAt > 300) process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await main({
    argv,
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    signal: controller.signal,
    version: VERSION,
  });
  process.exitCode = code;
  // Whatever still holds the event loop (a keep-alive socket, a stray timer) must not keep a
  // finished command alive.
  setTimeout(() => process.exit(code), 1000).unref();
}
