// `appraisal mock`: runs the bundled mock service until Ctrl-C / SIGTERM. Thin: parse the flags,
// start the mock (src/mock, loaded only here), print the eval-able lines on stdout, log on stderr.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';

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
}

function whole(flag: string, raw: string, min: number, max: number): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number between ${min} and ${max}, got "${raw}"`);
  }
  return Number(text);
}

/** A value a POSIX shell reads back unchanged from `NAME=value` (single-quoted when needed). */
export function shellValue(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

async function run(ctx: Context, flags: MockFlags): Promise<void> {
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
    log: flags.log ? (line: string) => ctx.io.writeErr(line) : undefined,
    onInternalError: (error: unknown) => ctx.io.warn(`mock: internal error (answered 500): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  };
  const { startMockServer, MockOptionError } = await import('../../mock/index.js');
  let server;
  try {
    server = await startMockServer(options);
  } catch (error) {
    if (error instanceof MockOptionError) {
      throw /admin key/.test(error.message) ? new UsageError(error.message) : new LocalEnvironmentError(error.message, { hint: 'pick another port with --port N, or --port 0 for a free one' });
    }
    throw error;
  }
  try {
    const lines = [`APPRAISAL_BASE_URL=${shellValue(server.baseUrl)}`];
    if (server.caFile) lines.push(`APPRAISAL_CA_FILE=${shellValue(server.caFile)}`);
    lines.push(`APPRAISAL_API_KEY=${shellValue(server.adminKey)}`);
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
    ctx.io.notice(
      `appraisal mock: ${server.baseUrl} (${options.records} records per family, seed ${options.seed}${options.latencyMs ? `, latency ${options.latencyMs} ms` : ''}${options.rateLimit ? `, ${options.rateLimit} requests/s per key` : ''}); admin key ${server.adminKey.slice(0, 12)}…; Ctrl-C to stop`,
    );
    ctx.runUntilInterrupted();
    await untilAborted(ctx.signal);
  } finally {
    await server.close();
    ctx.io.notice('appraisal mock: stopped');
  }
}

export default function mockCommand(factory: Factory): Command {
  const command = new Command('mock')
    .description('Run the bundled, stateful mock of the appraisal service (HTTPS with a generated certificate)')
    .option('--port <n>', 'TCP port; 0 picks a free one', '4000')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--http', 'plain HTTP instead of HTTPS')
    .option('--records <n>', 'seeded records per family', '250')
    .option('--seed <n>', 'seed of the deterministic data', '1')
    .option('--latency <ms>', 'delay before answering every /api request', '0')
    .option('--rate-limit <n>', 'requests per second per key (token bucket; 429 + Retry-After beyond it)')
    .option('--admin-key <key>', 'the admin key to use (apk_<8>_<32>; env APPRAISAL_MOCK_ADMIN_KEY); generated otherwise')
    .option('--log', 'log every request on stderr (method, path, status, key prefix)')
    .addHelpText(
      'after',
      '\nOnce listening it prints APPRAISAL_BASE_URL, APPRAISAL_CA_FILE (HTTPS only) and APPRAISAL_API_KEY on stdout,\n' +
        'one NAME=value line each, for a shell to eval. Fault injection: header x-mock-fault, or the /__mock/ admin routes.\n',
    )
    .action(action<MockFlags>(factory, (ctx, _args, flags) => run(ctx, flags)));
  return examples(command, [
    'appraisal mock --port 0 > mock.env &  # then: set -a; . ./mock.env; set +a',
    'appraisal mock --http --records 20000 --latency 20 --log',
  ]);
}
