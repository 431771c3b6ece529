// `appraisal auth login`: take a key from a hidden prompt, stdin (--with-key) or --api-key-file,
// check it against the service, store it in the OS keychain (or a 0600 file with
// --insecure-storage), and save the profile with the key's prefix — never the key.
import { resolve } from 'node:path';
import { ENVIRONMENTS, validateProfileName, type Environment } from '../../core/config.js';
import type { Context } from '../../core/context.js';
import { AuthenticationError, UsageError } from '../../core/errors.js';
import { cleanKey, readApiKeyFile, readStream } from '../../core/credentials/key-file.js';
import { KeychainUnavailableError, keychainAccount } from '../../core/credentials/keychain.js';
import { keychainProblem } from '../../core/credentials/key-slot.js';
import { defaultEnvironmentFor, displayOrigin, normalizeBaseUrl, originOf } from '../../core/credentials/origin.js';
import type { KeyRecord } from '../../core/credentials/key-record.js';
import { verifyKey } from './verify.js';
import { holdSecret } from '../../core/credentials/credential.js';
import { KEYCHAIN_STORE_FAILED, storeProfileKey } from '../../core/credentials/stored-key.js';
import { shellWord } from '../../core/shell-word.js';
import { rememberKeyExpiry } from '../../core/credentials/expiry-notice.js';
import { defineVerb } from '../../core/verb.js';

export interface LoginOptions {
  withKey?: boolean;
  /** Where this service's API description is published (URL or file), when discovery does not find it. */
  specUrl?: string;
  environment?: Environment;
  insecureStorage?: boolean;
}

/**
 * How the key will be read, from exactly one of the ways we accept (never a flag value or the
 * environment): chosen, and refused when there is none, before anything is read or asked.
 */
function candidateKeyReader(ctx: Context, options: LoginOptions): () => Promise<string> {
  const keyFile = ctx.globals.apiKeyFile;
  if (options.withKey && keyFile !== undefined) {
    throw new UsageError('give the key one way: --with-key (stdin) or --api-key-file, not both');
  }
  if (keyFile !== undefined) return () => readApiKeyFile(keyFile, { stdin: ctx.io.stdin, cwd: ctx.cwd });
  if (options.withKey) {
    // On a terminal, a hidden prompt rather than echoing what is typed.
    if (ctx.io.stdinIsTTY && ctx.io.canPrompt) return async () => cleanKey(await ctx.io.promptSecret('API key: '), 'the key');
    return async () => cleanKey(await readStream(ctx.io.stdin, 'stdin (--with-key)'), 'stdin (--with-key)');
  }
  if (ctx.io.canPrompt) return async () => cleanKey(await ctx.io.promptSecret('Paste the API key (input is hidden): '), 'the key');
  const variable = ctx.env.APPRAISAL_API_KEY ? 'APPRAISAL_API_KEY' : 'MY_KEY';
  throw new UsageError('no key given: pipe it with --with-key or use --api-key-file; keys are never accepted as flag values', {
    hint: `e.g. \`printenv ${variable} | appraisal auth login --with-key --base-url URL\`${
      variable === 'APPRAISAL_API_KEY' ? ' (APPRAISAL_API_KEY itself is used as it is, without logging in)' : ''
    }`,
  });
}

/**
 * The user's own `auth login` with --insecure-storage added, for the hint when the keychain cannot be
 * used: run as given, it works. Only flags and paths are repeated; a key is never a flag value.
 */
function insecureLoginLine(ctx: Context, options: LoginOptions, profileName: string): string {
  const words = ['appraisal', 'auth', 'login', '--profile', profileName];
  if (ctx.globals.baseUrl !== undefined) words.push('--base-url', ctx.globals.baseUrl);
  if (ctx.globals.caFile !== undefined) words.push('--ca-file', ctx.globals.caFile);
  if (options.environment !== undefined) words.push('--environment', options.environment);
  if (options.specUrl !== undefined) words.push('--spec-url', options.specUrl);
  if (ctx.globals.apiKeyFile !== undefined) words.push('--api-key-file', ctx.globals.apiKeyFile);
  if (options.withKey) words.push('--with-key');
  words.push('--insecure-storage');
  return words.map(shellWord).join(' ');
}

/** Before the key is asked for: can the keychain be used at all? Fails as storing would, so no paste is wasted. */
async function checkKeychainFirst(ctx: Context, profileName: string, origin: string, insecureLogin: string): Promise<void> {
  try {
    await ctx.keychain().get(keychainAccount(profileName, origin));
  } catch (error) {
    if (error instanceof KeychainUnavailableError) throw keychainProblem(error, KEYCHAIN_STORE_FAILED, profileName, insecureLogin);
    throw error;
  }
}

function describeKey(prefix: string, record: KeyRecord | undefined): string {
  if (!record) return `key ${prefix}`;
  const details = [record.name, Array.isArray(record.scopes) ? record.scopes.join(' ') : undefined].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  return `key ${prefix}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/** `--spec-url`: an http(s) URL without credentials, or a local file (kept as an absolute path); '' clears it. */
function checkSpecUrl(ctx: Context, raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  if (!/^https?:\/\//i.test(value)) return resolve(ctx.cwd, value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--spec-url is not a valid URL: "${value.slice(0, 80)}"`);
  }
  if (url.username || url.password) throw new UsageError('--spec-url must not contain a user name or password');
  return url.href;
}

export async function runLogin(ctx: Context, options: LoginOptions): Promise<void> {
  const config = await ctx.config();
  const profileName = validateProfileName(ctx.globals.profile ?? config.activeProfileName());
  const existing = config.getProfile(profileName);

  const rawBaseUrl = ctx.globals.baseUrl ?? existing?.baseUrl;
  if (rawBaseUrl === undefined) {
    throw new UsageError(`profile "${profileName}" has no base URL yet`, {
      hint: `pass --base-url URL (or set APPRAISAL_BASE_URL), e.g. \`appraisal auth login --profile ${profileName} --base-url https://api.example.com\``,
    });
  }
  const baseUrl = normalizeBaseUrl(rawBaseUrl);
  const origin = originOf(baseUrl);
  const sameOrigin = existing !== undefined && originOf(existing.baseUrl) === origin;

  let environment: Environment;
  if (options.environment !== undefined) environment = options.environment;
  else if (sameOrigin) environment = existing.environment;
  else {
    environment = defaultEnvironmentFor(baseUrl);
    // Local means a loopback host: say why, and when development is the better word (a tunnel).
    ctx.io.notice(
      environment === 'local'
        ? `environment: local, as ${new URL(baseUrl).hostname} is this machine (pass --environment development if it is a tunnel to a shared development service)`
        : `environment: ${environment} (pass --environment staging to change)`,
    );
  }
  const caFlag = ctx.globals.caFile;
  const caFile = caFlag !== undefined ? resolve(ctx.cwd, caFlag) : sameOrigin ? existing.caFile : undefined;

  const specUrl = options.specUrl === undefined ? (sameOrigin ? existing.specUrl : undefined) : checkSpecUrl(ctx, options.specUrl);
  const readKey = candidateKeyReader(ctx, options);
  const insecureLogin = insecureLoginLine(ctx, options, profileName);
  // Without a usable keychain, say so now, not after the key was pasted.
  if (options.insecureStorage !== true) await checkKeychainFirst(ctx, profileName, origin, insecureLogin);
  const secret = await readKey();
  // The one registration of the candidate with the redactor; the client that checks it takes it as it is.
  const credential = holdSecret(ctx.io, secret, 'keychain');
  const { prefix } = credential;

  let record: KeyRecord | undefined;
  try {
    record = await verifyKey(ctx, { baseUrl, credential, profileName, caFile });
  } catch (error) {
    if (error instanceof AuthenticationError) {
      const said = error.serviceMessage ? `: ${error.serviceMessage}` : '';
      const id = error.requestId ? `, request id ${error.requestId}` : '';
      throw new AuthenticationError(`the service refused key ${prefix}… (${error.status}${said}${id}); nothing was stored`, {
        status: error.status,
        method: error.method,
        path: error.path,
        requestId: error.requestId,
        serviceCode: error.serviceCode,
        serviceMessage: error.serviceMessage,
        hint: 'check that the key is complete, not revoked or expired, and meant for this base URL',
        cause: error,
      });
    }
    throw error;
  }

  const stored = await storeProfileKey(
    config,
    () => ctx.keychain(),
    { profileName, baseUrl, environment, caFile, secret, insecure: options.insecureStorage === true, insecureLogin },
    (message) => ctx.io.warn(message),
  );

  const saved = config.getProfile(profileName);
  if (saved && saved.specUrl !== specUrl) await config.saveProfile({ ...saved, specUrl });

  // What the service said about the key's expiry, for the once-a-day notice of every command.
  if (record) rememberKeyExpiry(config.dir, profileName, { prefix, expiresAt: record.expiresAt, scopes: record.scopes });

  const where = stored.storage === 'keychain' ? 'the OS keychain' : 'a 0600 file (--insecure-storage)';
  ctx.io.writeErr(
    `Logged in to ${displayOrigin(baseUrl)} as profile ${profileName} with ${describeKey(prefix, record)}; stored in ${where}`,
  );
  if (!stored.madeActive && config.activeProfileName() !== profileName) {
    ctx.io.notice(`note: the active profile is ${config.activeProfileName()}; run \`appraisal profiles use ${profileName}\` to switch`);
  }
}

export default defineVerb<LoginOptions>({
  name: 'login',
  summary: 'check an API key against the service and store it for a profile (OS keychain)',
  options: [
    { flags: '--with-key', description: 'read the key from stdin' },
    {
      flags: '--environment <env>',
      description: 'what the profile points at (default: local for loopback hosts, else production)',
      choices: ENVIRONMENTS,
    },
    {
      flags: '--spec-url <url|path>',
      description: "where this service publishes its API description, if not found by discovery (kept in the profile; '' clears it)",
    },
    { flags: '--insecure-storage', description: 'keep the key in a 0600 file in the config dir instead of the OS keychain' },
  ],
  // Not --spec (it keeps --spec-url in the profile) nor --max-response-size (one small answer).
  takes: ['profile', 'baseUrl', 'caFile', 'apiKeyFile', 'timeout', 'retries'],
  // The candidate key is checked with a client of its own (verify.ts), not the context's bound one.
  calls: 'per-request',
  examples: [
    'appraisal auth login --profile staging --base-url https://staging.example.com --environment staging',
    'printenv STAGING_KEY | appraisal auth login --profile staging --with-key',
    'appraisal auth login --api-key-file ~/.secrets/appraisal.key --base-url https://api.example.com',
  ],
  notes: 'The key is never accepted as a flag value. Without a terminal, pipe it with --with-key.',
  run: (ctx, _args, options) => runLogin(ctx, options),
});
