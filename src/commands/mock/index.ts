// `appraisal mock`: runs the bundled mock service until Ctrl-C / SIGTERM. Thin: parse the flags,
// start the mock (src/mock, loaded only here), print the eval-able lines on stdout, log on stderr.
// The one-line summary is the registry's (commands/registry.ts).
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../core/atomic-file.js';
import type { Context } from '../../core/context.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { defineNounCommand } from '../../core/verb.js';
import { shellWord } from '../../core/shell-word.js';

interface MockFlags {
  port: string;
  host: string;
  http?: boolean;
  records: string;
  seed: string;
  latency: string;
  rateLimit?: string;
  adminKey?: string;
  log?: boolean;
  // Not --env-file: Node 20 reads that flag anywhere on its command line, even after the script.
  writeEnv?: string;
  detach?: boolean;
  prerender?: boolean;
  description?: string;
  clockOffset?: string;
}

function whole(flag: string, raw: string, min: number, max: number): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number between ${min} and ${max}, got "${raw}"`);
  }
  return Number(text);
}

/** `--clock-offset -600`: whole seconds either way, at most ten years. */
function clockOffset(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const limit = 10 * 365 * 86_400;
  if (!/^[+-]?\d+$/.test(text) || Math.abs(Number(text)) > limit) {
    throw new UsageError(
      `--clock-offset must be whole seconds between -${limit} and ${limit} (e.g. -600: ten minutes behind), got "${raw}"`,
    );
  }
  return Number(text);
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The last line the mock prints once it listens: a detached start is ready when it has arrived. */
const READY_LINE = /^APPRAISAL_API_KEY=.*\n/m;

/** How long `--detach` waits for the mock to listen (it needs ~2 s on a loaded machine). */
const DETACH_TIMEOUT_MS = 60_000;

/**
 * `--detach`: the same mock in the background; return once it listens, printing its lines and its
 * pid. The flags go to the child as given (already checked here); the admin key goes by environment,
 * never on a command line other processes can read.
 */
async function detach(ctx: Context, flags: MockFlags, envFile: string | undefined): Promise<void> {
  const args = [
    'mock',
    '--port',
    flags.port,
    '--host',
    flags.host,
    '--records',
    flags.records,
    '--seed',
    flags.seed,
    '--latency',
    flags.latency,
  ];
  if (flags.http) args.push('--http');
  if (flags.prerender) args.push('--prerender');
  if (flags.rateLimit !== undefined) args.push('--rate-limit', flags.rateLimit);
  if (flags.clockOffset !== undefined) args.push('--clock-offset', flags.clockOffset);
  if (flags.description !== undefined) args.push('--description', flags.description);
  if (envFile !== undefined) args.push('--write-env', envFile);
  const env = { ...ctx.env };
  if (flags.adminKey !== undefined) env.APPRAISAL_MOCK_ADMIN_KEY = flags.adminKey;
  const { startDetached } = await import('../../core/detach.js');
  const started = await startDetached({
    args,
    env,
    cwd: ctx.cwd,
    ready: (out) => READY_LINE.test(out),
    signal: ctx.signal,
    timeoutMs: DETACH_TIMEOUT_MS,
    what: 'the mock',
  });
  const lines = `${started.stdout}APPRAISAL_MOCK_PID=${started.pid}\n`;
  if (envFile !== undefined) {
    // The lines hold the admin key: with --write-env they go to that 0600 file only (the mock wrote
    // it once listening; the pid is added here), never to stdout where a redirect would leave them 0644.
    await writeEnvFile(envFile, lines);
  } else {
    ctx.io.stdout.write(lines);
  }
  ctx.io.notice(
    `appraisal mock: running in the background (pid ${started.pid})${envFile !== undefined ? `; its variables are in ${flags.writeEnv}` : ''}; stop it with: kill ${started.pid}`,
  );
}

async function run(ctx: Context, flags: MockFlags): Promise<void> {
  const envFile = flags.writeEnv === undefined ? undefined : resolve(ctx.cwd, flags.writeEnv);
  const adminKey = flags.adminKey ?? ctx.env.APPRAISAL_MOCK_ADMIN_KEY;
  const options = {
    port: whole('--port', flags.port, 0, 65535),
    host: flags.host,
    http: flags.http === true,
    records: whole('--records', flags.records, 0, 10_000_000),
    seed: whole('--seed', flags.seed, 0, 4_294_967_295),
    latencyMs: whole('--latency', flags.latency, 0, 600_000),
    rateLimit: flags.rateLimit === undefined ? 0 : whole('--rate-limit', flags.rateLimit, 1, 1_000_000),
    adminKey,
    prerender: flags.prerender === true,
    description: flags.description as 'standard' | 'alternative' | undefined,
    clockOffsetSeconds: clockOffset(flags.clockOffset),
    log: flags.log ? (line: string) => ctx.io.writeErr(line) : undefined,
    onInternalError: (error: unknown) =>
      ctx.io.warn(`mock: internal error (answered 500): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  };
  if (flags.detach) {
    // Its requests are logged to a stderr nobody reads once it is in the background.
    if (flags.log) throw new UsageError('--log needs the mock in the foreground (drop --detach)');
    return detach(ctx, flags, envFile);
  }
  const { startMockServer, MockOptionError } = await import('../../mock/index.js');
  let server;
  try {
    server = await startMockServer(options);
  } catch (error) {
    if (error instanceof MockOptionError) {
      if (/admin key|description/.test(error.message)) throw new UsageError(error.message);
      // A host this machine has no address for is not a port problem.
      const hint = /^cannot listen on host/.test(error.message)
        ? 'pass --host an address of this machine: 127.0.0.1 (the default) or ::1'
        : 'pick another port with --port N, or --port 0 for a free one';
      throw new LocalEnvironmentError(error.message, { hint });
    }
    throw error;
  }
  // "stopped" only after "listening": a start that failed (--write-env) is its error line alone.
  let announced = false;
  try {
    const lines = [`APPRAISAL_BASE_URL=${shellWord(server.baseUrl)}`];
    if (server.caFile) lines.push(`APPRAISAL_CA_FILE=${shellWord(server.caFile)}`);
    lines.push(`APPRAISAL_API_KEY=${shellWord(server.adminKey)}`);
    // The file first: whoever waits on stdout may read the file as soon as stdout says ready.
    if (envFile !== undefined) await writeEnvFile(envFile, `${lines.join('\n')}\n`);
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
    ctx.io.notice(
      `appraisal mock: ${server.baseUrl} (${options.records} records per family, seed ${options.seed}${options.latencyMs ? `, latency ${options.latencyMs} ms` : ''}${options.rateLimit ? `, ${options.rateLimit} requests/s per key` : ''}${options.clockOffsetSeconds ? `, clock ${options.clockOffsetSeconds} s off` : ''}); admin key ${server.adminKey.slice(0, 12)}…; Ctrl-C to stop`,
    );
    announced = true;
    ctx.runUntilInterrupted();
    await untilAborted(ctx.signal);
  } finally {
    // A file left behind would point the next shell at a mock that is gone.
    if (envFile !== undefined) await rm(envFile, { force: true });
    await server.close();
    if (announced) ctx.io.notice('appraisal mock: stopped');
  }
}

async function writeEnvFile(path: string, text: string): Promise<void> {
  try {
    // 0600: it holds the mock's admin key.
    await writeFileAtomic(path, text, { mode: 0o600 });
  } catch (error) {
    // In words, without Node's text: it names the temp file beside PATH, which the user never asked for.
    throw new LocalEnvironmentError(`cannot write --write-env ${path}: ${fileErrorWords(error)}`);
  }
}

export default defineNounCommand<MockFlags>({
  options: [
    { flags: '--port <n>', description: 'TCP port; 0 picks a free one', defaultValue: '4000' },
    { flags: '--host <host>', description: 'interface to listen on', defaultValue: '127.0.0.1' },
    { flags: '--http', description: 'plain HTTP instead of HTTPS' },
    { flags: '--records <n>', description: 'seeded records per family', defaultValue: '250' },
    { flags: '--seed <n>', description: 'seed of the deterministic data', defaultValue: '1' },
    { flags: '--latency <ms>', description: 'delay before answering every /api request', defaultValue: '0' },
    { flags: '--rate-limit <n>', description: 'requests per second per key (token bucket; 429 + Retry-After beyond it)' },
    { flags: '--admin-key <key>', description: 'the admin key to use (apk_<8>_<32>; env APPRAISAL_MOCK_ADMIN_KEY); generated otherwise' },
    {
      flags: '--description <variant>',
      description:
        'which API description to publish: standard (openapi.json) or alternative (moved, removed and changed operations, for tests)',
      choices: ['standard', 'alternative'],
      defaultValue: 'standard',
    },
    {
      flags: '--clock-offset <seconds>',
      description: "run the service's clock this far off this machine's (-600: ten minutes behind): its Date header and timestamps",
    },
    { flags: '--log', description: 'log every request on stderr (method, path, status, key prefix)' },
    {
      flags: '--write-env <path>',
      description: 'once listening, also write the NAME=value lines to this file (atomically, mode 0600); removed when the mock stops',
    },
    {
      flags: '--detach',
      description:
        'run in the background: return once listening, printing the lines and APPRAISAL_MOCK_PID (to the --write-env file instead when given; stop it with kill)',
    },
    {
      flags: '--prerender',
      description: 'serve each collection page from the bytes rendered the first time, until a write (for benchmarks: less CPU)',
    },
  ],
  takes: [],
  calls: 'none',
  examples: [
    'appraisal mock --port 0 --detach --write-env mock.env  # then: set -a; . ./mock.env; set +a  ...  kill "$APPRAISAL_MOCK_PID"',
    'appraisal mock --http --records 20000 --latency 20 --log',
  ],
  notes:
    'Once listening it prints APPRAISAL_BASE_URL, APPRAISAL_CA_FILE (HTTPS only) and APPRAISAL_API_KEY on stdout,\n' +
    'one NAME=value line each, for a shell to eval. A script waits for it with --detach (returns once listening)\n' +
    'or --write-env FILE (the file appears, complete, once listening). Fault injection: header x-mock-fault, or the\n' +
    '/__mock/ admin routes.',
  run: (ctx, _args, flags) => run(ctx, flags),
});
