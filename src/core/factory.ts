// Builds the Context a command receives. Heavy pieces (config, session, HTTP client) are created on
// first use through dynamic imports, so `--help` and simple commands never load undici or conf.
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { clientSettings, userAgent, type ApiClient, type ClientTarget } from './api-client.js';
import type { ConfigStore } from './config.js';
import type { Context, NestedStreams } from './context.js';
import type { GlobalOptions } from './global-options.js';
import { OutputPlan } from './output-plan.js';
import type { OutputFlags } from './sink-plan.js';
import type { Env } from './env.js';
import { IO } from './io.js';
import type { SecretStore } from './credentials/keychain.js';
import type { Session } from './session.js';
import type { Operation } from './description/operations.js';
import { ServiceClock } from './service-clock.js';
import type { DeclaredNoun } from './verb.js';

/** Builds the context for the command being run, bound to the operations it declares it calls. */
export interface Factory {
  /** `outputFlags`: the list's own output options, when the verb declares them (output-flags.ts). */
  context(command: Command, operations: readonly Operation[], outputFlags?: OutputFlags): Context;
}

export interface ProcessDeps {
  argv: string[];
  env: Env;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  cwd: string;
  signal: AbortSignal;
  version: string;
  now?: () => Date;
  /** The keychain (default: the OS keychain, loaded on first use); the in-process test runner hands in its own. */
  keychain?: () => SecretStore;
  /**
   * Ask V8 to favour a small heap over speed: installed by the process entry (src/boot/cli.ts, which
   * sets every V8 flag: the application never does), called by paging before a long read
   * (core/http/paginate.ts) and by a long import (Context.favourSmallHeap). Absent when main() runs
   * in a test: V8 stays as it is.
   */
  favourSmallHeap?: (() => void) | undefined;
  /** Every noun's declarations (main.ts hands the registry's loader in: core cannot import the registry). */
  declarations?: () => Promise<readonly DeclaredNoun[]>;
  /** How Context.runCommand runs a nested command (main.ts sets it: core cannot import main). */
  runCommand?: (argv: readonly string[], streams: NestedStreams) => Promise<number>;
}

export interface ContextHandle {
  context: Context;
  /** True when the command declared that Ctrl-C is how it normally ends. */
  readonly interruptIsNormalEnd: boolean;
  /** Close what the context opened (HTTP connections). */
  dispose(): Promise<void>;
}

/** The command being run and the operations it declared: its API client is bound to the service's description. */
export interface CommandOperations {
  /** `props list`, for messages. */
  name: string;
  operations: readonly Operation[];
  /** Its own output options (--resume, --split-rows, --wide…), read by the output plan. */
  outputFlags?: OutputFlags | undefined;
}

/** The run's one output plan (format, fields, destination, colour, width): writers read it, never the globals. */
export function planOutput(
  deps: Pick<ProcessDeps, 'cwd' | 'env' | 'stdout' | 'stdoutIsTTY'>,
  globals: GlobalOptions,
  flags?: OutputFlags,
): OutputPlan {
  const plan = OutputPlan.from({
    globals,
    flags,
    cwd: deps.cwd,
    stdoutIsTTY: deps.stdoutIsTTY,
    color: globals.color,
    columns: deps.stdoutIsTTY ? (deps.stdout as { columns?: number }).columns : undefined,
    columnsVariable: deps.env.COLUMNS,
  });
  // --delimiter and --bom mean csv, whatever the command: refused at once (exit 2) where the run writes
  // something else, by every command alike, not only by those that check their output before a request.
  if (globals.delimiter !== undefined || globals.bom) void plan.csv;
  return plan;
}

/** The OS keychain, its code (and the native addon) loaded at the first call, not when the context is made. */
function osKeychainOnFirstUse(env: Env): SecretStore {
  let store: Promise<SecretStore> | undefined;
  const opened = () => (store ??= import('./credentials/keychain.js').then((m) => m.osKeychain(env)));
  return {
    get: async (account) => (await opened()).get(account),
    set: async (account, secret) => (await opened()).set(account, secret),
    delete: async (account) => (await opened()).delete(account),
  };
}

export function createContext(deps: ProcessDeps, globals: GlobalOptions, command?: CommandOperations): ContextHandle {
  const io = new IO({
    // A getter, so process.stdin is read only by a command that reads stdin (IO.stdin says why).
    get stdin() {
      return deps.stdin;
    },
    stdout: deps.stdout,
    stderr: deps.stderr,
    stdinIsTTY: deps.stdinIsTTY,
    stdoutIsTTY: deps.stdoutIsTTY,
    stderrIsTTY: deps.stderrIsTTY,
    color: globals.color,
    quiet: globals.quiet,
    verbose: globals.verbose,
    noInput: globals.noInput,
    signal: deps.signal,
  });
  let config: Promise<ConfigStore> | undefined;
  let session: Promise<Session> | undefined;
  let api: Promise<ApiClient> | undefined;
  let keychain: SecretStore | undefined;
  let interruptIsNormalEnd = false;
  // Cache writes for a service-desc Link seen on an answer: one after the other (a watch sees the
  // header on every poll), awaited before the process ends.
  let announcements: Promise<void> = Promise.resolve();
  const now = deps.now ?? (() => new Date());
  const serviceClock = new ServiceClock(() => now().getTime());
  const onAnswer = (headers: Readonly<Record<string, string | undefined>>, url: URL) => {
    serviceClock.observe(headers.date);
    const link = headers.link;
    // Rare (most answers carry no Link): only then is the description code loaded.
    if (link === undefined || !/service-desc/i.test(link)) return;
    announcements = announcements
      .then(() => import('./description/announced.js').then((m) => m.rememberAnnounced(context, link, url)))
      .catch(() => undefined);
  };

  // Every API client of the run is made here; undici and the HTTP code load with the first one.
  const newClient = async (target: ClientTarget): Promise<ApiClient> => {
    const { createApiClient } = await import('./http/undici-api-client.js');
    return createApiClient(clientSettings(context, target));
  };

  const context: Context = {
    io,
    env: deps.env,
    globals,
    output: planOutput(deps, globals, command?.outputFlags),
    signal: deps.signal,
    version: deps.version,
    cwd: deps.cwd,
    now,
    serviceClock,
    favourSmallHeap: () => deps.favourSmallHeap?.(),
    runUntilInterrupted: () => {
      interruptIsNormalEnd = true;
    },
    runCommand: (argv, streams) => {
      if (!deps.runCommand) throw new Error('this run cannot start nested commands');
      return deps.runCommand(argv, streams);
    },
    declarations: () => {
      if (!deps.declarations) throw new Error('this run was given no declarations (main.ts gives them)');
      return deps.declarations();
    },
    description: { announced: new Set() },
    config: () =>
      (config ??= import('./config.js').then((m) =>
        m.loadConfig(deps.env, {
          signal: deps.signal,
          onWait: (holder) =>
            io.notice(`waiting for another appraisal command${holder ? ` (pid ${holder})` : ''} to finish changing the profiles…`),
        }),
      )),
    session: () => (session ??= import('./session.js').then((m) => m.resolveSession(context))),
    keychain: () => (keychain ??= deps.keychain?.() ?? osKeychainOnFirstUse(deps.env)),
    clientFor: newClient,
    // Never the session's client: nothing of the API key's is within its reach.
    outbound: async (settings) =>
      (await import('./http/outbound.js')).createOutboundClient(settings, { env: deps.env, userAgent: userAgent(deps.version) }),
    api: () =>
      (api ??= (async () => {
        const resolved = await context.session();
        // The transport refuses a key over plain http:// to another machine (url-guard.ts); said here
        // first, before the description is read or a connection opened: nothing goes out at all.
        if (resolved.credential && resolved.baseUrl.startsWith('http:'))
          (await import('./http/url-guard.js')).assertSafeTransport(new URL(resolved.baseUrl));
        // Once a day per profile: "your key expires soon", from a cached date (no request, no keychain).
        if (resolved.credential) await import('./credentials/expiry-notice.js').then((m) => m.noticeKeyExpiry(context, resolved));
        const talks = command !== undefined && command.operations.length > 0;
        // A command that declares operations sends a request next: its connection is opened now,
        // while the description is read and the command prepares (~15-20 ms of TCP and TLS).
        const client = await newClient({ ...resolved, onAnswer, favourSmallHeap: deps.favourSmallHeap, connectAhead: talks });
        // A command that declares its operations talks to them where the service publishes them,
        // or is refused before any request when it does not (description/operation-binding.ts).
        if (!talks) return client;
        try {
          const { clientForCommand } = await import('./description/command-client.js');
          return await clientForCommand(context, client, command.name, command.operations);
        } catch (error) {
          await client.close().catch(() => undefined);
          throw error;
        }
      })()),
  };
  // Written as -o says, but a name that says another format is most often a slip: said once, at the start.
  if (context.output.mismatch !== undefined) io.warn(context.output.mismatch);

  return {
    context,
    get interruptIsNormalEnd() {
      return interruptIsNormalEnd;
    },
    async dispose() {
      await announcements;
      if (api) await (await api.catch(() => undefined))?.close();
    },
  };
}
