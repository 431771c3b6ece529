// A Context over in-memory streams and a private config dir, and an in-memory keychain, for the
// credential unit tests.
import { mkdtempSync } from 'node:fs';
import { DEFAULT_GLOBALS } from '../../../helpers/fake-context.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { ApiClient } from '../../../../src/core/api-client.js';
import type { ConfigStore } from '../../../../src/core/config.js';
import type { Context, GlobalOptions } from '../../../../src/core/context.js';
import type { Env } from '../../../../src/core/env.js';
import { IO } from '../../../../src/core/io.js';
import { KeychainUnavailableError, type SecretStore } from '../../../../src/core/credentials/keychain.js';
import { resolveSession } from '../../../../src/core/session.js';
import type { Session } from '../../../../src/core/session-types.js';

export class FakeKeychain implements SecretStore {
  readonly entries = new Map<string, string>();
  readonly calls: string[] = [];
  failure: KeychainUnavailableError | undefined;

  async get(account: string): Promise<string | undefined> {
    this.calls.push(`get ${account}`);
    if (this.failure) throw this.failure;
    return this.entries.get(account);
  }
  async set(account: string, secret: string): Promise<void> {
    this.calls.push(`set ${account}`);
    if (this.failure) throw this.failure;
    this.entries.set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    this.calls.push(`delete ${account}`);
    if (this.failure) throw this.failure;
    return this.entries.delete(account);
  }
}

export interface FakeContextOptions {
  env?: Env;
  globals?: Partial<GlobalOptions>;
  stdin?: string;
  tty?: boolean;
  keychain?: SecretStore;
  now?: Date;
  /** Answers to io.confirm / io.promptSecret, in order. */
  answers?: string[];
}

export interface FakeContext {
  ctx: Context;
  configDir: string;
  stdout(): string;
  stderr(): string;
}

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}

export const GLOBAL_DEFAULTS: GlobalOptions = { ...DEFAULT_GLOBALS, timeoutMs: 5000, retries: 0 };

export function tempConfigDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'appraisal-unit-')), 'config');
}

export function fakeContext(options: FakeContextOptions = {}): FakeContext {
  const configDir = options.env?.APPRAISAL_CONFIG_DIR ?? tempConfigDir();
  const env: Env = { APPRAISAL_CONFIG_DIR: configDir, ...options.env };
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const readOut = collect(stdout);
  const readErr = collect(stderr);
  const tty = options.tty ?? false;
  const globals: GlobalOptions = { ...GLOBAL_DEFAULTS, ...options.globals };
  const io = new IO({
    stdin,
    stdout,
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    color: false,
    quiet: globals.quiet,
    verbose: globals.verbose,
    noInput: globals.noInput,
  });
  const answers = [...(options.answers ?? [])];
  io.confirm = async () => /^y/i.test(answers.shift() ?? 'n');
  io.promptSecret = async () => answers.shift() ?? '';
  let config: Promise<ConfigStore> | undefined;
  let session: Promise<Session> | undefined;
  const ctx: Context = {
    io,
    env,
    globals,
    signal: new AbortController().signal,
    version: '0.0.0-test',
    cwd: process.cwd(),
    now: () => options.now ?? new Date(),
    config: () => (config ??= import('../../../../src/core/config.js').then((m) => m.loadConfig(env))),
    session: () =>
      (session ??= resolveSession(ctx, options.keychain ? { keychain: () => options.keychain! } : { keychain: () => new FakeKeychain() })),
    api: async (): Promise<ApiClient> => {
      throw new Error('no API client in this unit test');
    },
    runUntilInterrupted: () => {},
  };
  return { ctx, configDir, stdout: readOut, stderr: readErr };
}

export const KEY_A = 'apk_AAAAaaaa_0123456789abcdefghijABCDEFGHIJ';
export const KEY_B = 'apk_BBBBbbbb_0123456789abcdefghijABCDEFGHIJ';
export const KEY_ENV = 'apk_EEEEeeee_0123456789abcdefghijABCDEFGHIJ';
