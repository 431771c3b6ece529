// A Context for in-process tests: a real IO over in-memory streams, globals with the non-terminal
// defaults, and whatever api/clientFor/config/session/keychain fakes a test hands in (the rest throw if used).
//
//   const { ctx, stdout, stderr } = fakeContext({ globals: { output: 'csv' }, stdinText: '{"a":1}' });
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { ApiClient, ClientTarget } from '../../src/core/api-client.js';
import type { ConfigStore } from '../../src/core/config.js';
import type { Context } from '../../src/core/context.js';
import type { GlobalOptions } from '../../src/core/global-options.js';
import { planOutput } from '../../src/core/factory.js';
import type { OutputFlags } from '../../src/core/sink-plan.js';
import type { Env } from '../../src/core/env.js';
import { IO } from '../../src/core/io.js';
import { ServiceClock } from '../../src/core/service-clock.js';
import type { SecretStore } from '../../src/core/credentials/keychain.js';
import type { Session } from '../../src/core/session.js';

export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = {
  profile: undefined,
  baseUrl: undefined,
  output: undefined,
  fields: undefined,
  delimiter: undefined,
  bom: false,
  page: undefined,
  pageSize: undefined,
  maxItems: undefined,
  concurrency: 4,
  out: undefined,
  timeoutMs: 30_000,
  retries: 3,
  caFile: undefined,
  apiKeyFile: undefined,
  allowPartial: false,
  verbose: false,
  quiet: false,
  color: false,
  yes: false,
  noInput: false,
  environment: undefined,
};

export interface FakeContextOptions {
  globals?: Partial<GlobalOptions>;
  /** A list verb's own output options (--resume, --split-rows, --wide…): the output plan reads them. */
  outputFlags?: OutputFlags;
  /** Content of stdin, which then ends. Without it (and without `stdin`) stdin is empty and ended. */
  stdinText?: string;
  /** A stdin stream of the test's own (e.g. one that never ends). */
  stdin?: Readable;
  /** Replace the capturing stdout (e.g. a slow or closing writable); stdout() then returns ''. */
  stdout?: Writable;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  cwd?: string;
  env?: Env;
  signal?: AbortSignal;
  now?: () => Date;
  api?: ApiClient;
  /** Clients of their own (another key or signal): the service as the test fakes it. */
  clientFor?: (target: ClientTarget) => Promise<ApiClient>;
  /** The keychain (an in-memory fake); without it, using the keychain fails the test. */
  keychain?: SecretStore;
  /** A config store, or how to load one (once, on first use). */
  config?: ConfigStore | (() => Promise<ConfigStore>);
  /** A session, or how to resolve one for this context (once, on first use). */
  session?: Session | ((ctx: Context) => Promise<Session>);
  /** Answers to io.confirm / io.promptSecret, in order (a confirm is yes when its answer starts with y). */
  answers?: string[];
}

export interface FakeContext {
  ctx: Context;
  io: IO;
  /** Everything written to stdout so far (utf8). */
  stdout(): string;
  /** Everything written to stderr so far (utf8). */
  stderr(): string;
  /** Abort ctx.signal, as Ctrl-C does (only when no `signal` was handed in). */
  abort(reason?: unknown): void;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

function unavailable(what: string): () => Promise<never> {
  return () => Promise.reject(new Error(`fakeContext: no ${what} was given to this test context`));
}

export function fakeContext(options: FakeContextOptions = {}): FakeContext {
  const globals: GlobalOptions = { ...DEFAULT_GLOBALS, ...options.globals };
  const out = capture();
  const err = capture();
  let stdin = options.stdin;
  if (!stdin) {
    const stream = new PassThrough();
    stream.end(options.stdinText ?? '');
    stdin = stream;
  }
  const io = new IO({
    stdin,
    stdout: options.stdout ?? out.stream,
    stderr: err.stream,
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    color: globals.color,
    quiet: globals.quiet,
    verbose: globals.verbose,
    noInput: globals.noInput,
  });
  if (options.answers) {
    const answers = [...options.answers];
    io.confirm = async () => /^y/i.test(answers.shift() ?? 'n');
    io.promptSecret = async () => answers.shift() ?? '';
  }
  const controller = new AbortController();
  let config: Promise<ConfigStore> | undefined;
  let session: Promise<Session> | undefined;
  const given = { config: options.config, session: options.session };
  const env = options.env ?? {};
  const cwd = options.cwd ?? process.cwd();
  const stdout = options.stdout ?? out.stream;
  const now = options.now ?? (() => new Date());
  const ctx: Context = {
    io,
    env,
    globals,
    output: planOutput({ cwd, env, stdout, stdoutIsTTY: options.stdoutIsTTY ?? false }, globals, options.outputFlags),
    signal: options.signal ?? controller.signal,
    version: '0.0.0-test',
    cwd,
    now,
    // Fed by nothing unless a test observes a Date header on it: a fake api sends no answers.
    serviceClock: new ServiceClock(() => now().getTime()),
    config: given.config
      ? () => (config ??= typeof given.config === 'function' ? given.config() : Promise.resolve(given.config!))
      : unavailable('config'),
    session: given.session
      ? () => (session ??= typeof given.session === 'function' ? given.session(ctx) : Promise.resolve(given.session!))
      : unavailable('session'),
    api: options.api ? () => Promise.resolve(options.api!) : unavailable('api client'),
    clientFor: options.clientFor ?? unavailable('clientFor'),
    outbound: unavailable('outbound'),
    keychain: () => {
      if (!options.keychain) throw new Error('fakeContext: no keychain was given to this test context');
      return options.keychain;
    },
    favourSmallHeap: () => {},
    runUntilInterrupted: () => {},
    runCommand: () => Promise.reject(new Error('fake contexts run no nested command')),
    // The registry's declarations, as main.ts hands them in.
    declarations: () => import('../../src/commands/registry.js').then((m) => m.loadAllNouns()),
    description: { announced: new Set() },
  };
  return {
    ctx,
    io,
    stdout: out.text,
    stderr: err.text,
    abort: (reason?: unknown) => controller.abort(reason),
  };
}
