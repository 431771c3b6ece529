// A Context over in-memory streams and a private config dir, and an in-memory keychain, for the
// credential unit tests, and an in-memory key slot whose writes and reads can be made to fail (rotation).
import { join } from 'node:path';
import type { ApiClient, ClientTarget } from '../../../../src/core/api-client.js';
import type { Context } from '../../../../src/core/context.js';
import type { GlobalOptions } from '../../../../src/core/global-options.js';
import type { Env } from '../../../../src/core/env.js';
import { KeychainUnavailableError, type SecretStore } from '../../../../src/core/credentials/keychain.js';
import { KeyWriteError, type KeySlot } from '../../../../src/core/credentials/key-slot.js';
import { LocalEnvironmentError } from '../../../../src/core/errors.js';
import { resolveSession } from '../../../../src/core/session.js';
import { DEFAULT_GLOBALS, fakeContext } from '../../../helpers/fake-context.js';
import { tempDir } from '../../../helpers/temp.js';

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

export interface ConfigContextOptions {
  env?: Env;
  globals?: Partial<GlobalOptions>;
  stdin?: string;
  tty?: boolean;
  keychain?: SecretStore;
  /** Clients of their own (login's candidate key): the service as the test fakes it. */
  clientFor?: (target: ClientTarget) => Promise<ApiClient>;
  now?: Date;
  /** Answers to io.confirm / io.promptSecret, in order. */
  answers?: string[];
}

export interface ConfigContext {
  ctx: Context;
  configDir: string;
  stdout(): string;
  stderr(): string;
}

export const GLOBAL_DEFAULTS: GlobalOptions = { ...DEFAULT_GLOBALS, timeoutMs: 5000, retries: 0 };

export function tempConfigDir(): string {
  return join(tempDir('appraisal-unit-'), 'config');
}

/** Not a second fake context: the one of test/helpers/fake-context.ts, given a real config in a temp
 *  dir and a session resolved through the real credential code, with a fake keychain. */
export function contextWithConfig(options: ConfigContextOptions = {}): ConfigContext {
  const configDir = options.env?.APPRAISAL_CONFIG_DIR ?? tempConfigDir();
  const env: Env = { APPRAISAL_CONFIG_DIR: configDir, ...options.env };
  const tty = options.tty ?? false;
  const keychain = options.keychain ?? new FakeKeychain();
  const fake = fakeContext({
    env,
    globals: { ...GLOBAL_DEFAULTS, ...options.globals },
    stdinText: options.stdin ?? '',
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    now: () => options.now ?? new Date(),
    answers: options.answers ?? [],
    config: () => import('../../../../src/core/config.js').then((m) => m.loadConfig(env)),
    session: (ctx) => resolveSession(ctx),
    keychain,
    clientFor: options.clientFor,
  });
  return { ctx: fake.ctx, configDir, stdout: fake.stdout, stderr: fake.stderr };
}

export const KEY_A = 'apk_AAAAaaaa_0123456789abcdefghijABCDEFGHIJ';
export const KEY_B = 'apk_BBBBbbbb_0123456789abcdefghijABCDEFGHIJ';
export const KEY_ENV = 'apk_EEEEeeee_0123456789abcdefghijABCDEFGHIJ';

export type SlotFailure = 'refused' | 'timeout-unwritten' | 'timeout-written' | undefined;

/** A key slot in memory. `writeFailures` fail the next writes in order; `readOverride` replaces what reads return. */
export class FakeSlot implements KeySlot {
  readonly profileName = 'default';
  readonly storage = 'keychain' as const;
  readonly where = 'the OS keychain (default@https://api.test:443)';
  readonly calls: string[] = [];
  writeFailures: SlotFailure[] = [];
  readFailure: Error | undefined;
  readOverride: string | undefined;

  constructor(public value: string | undefined) {}

  async read(): Promise<string | undefined> {
    this.calls.push('read');
    if (this.readFailure) throw this.readFailure;
    return this.readOverride ?? this.value;
  }

  async write(secret: string): Promise<void> {
    this.calls.push(`write ${secret.slice(0, 12)}`);
    const failure = this.writeFailures.shift();
    if (failure === 'timeout-written') this.value = secret;
    if (failure) {
      const problem = new LocalEnvironmentError(
        `could not write the key: the OS keychain ${failure === 'refused' ? 'is locked' : 'did not answer'}`,
      );
      throw new KeyWriteError(problem, failure === 'refused');
    }
    this.value = secret;
  }

  async remove(): Promise<boolean> {
    this.calls.push('remove');
    const had = this.value !== undefined;
    this.value = undefined;
    return had;
  }
}
