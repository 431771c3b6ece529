// `appraisal keys create --name N --scope S...`: a new key, whose secret is shown exactly once —
// alone on stdout (metadata and the "store it now" notice on stderr), or in the record with an
// explicit -o, or not at all with --store-as PROFILE, which puts it straight into that profile's
// keychain entry (or insecure file) and prints only the prefix.
import { validateProfileName, type Profile } from '../../core/config.js';
import type { Context } from '../../core/context.js';
import { AppError, ContractError, LocalEnvironmentError, SafetyError, UsageError } from '../../core/errors.js';
import { displayOrigin, originOf } from '../../core/credentials/origin.js';
import { storeProfileKey } from '../../core/credentials/stored-key.js';
import { rememberSecret } from '../../core/credentials/credential.js';
import { requestedExpiry } from './expires.js';
import { rememberKeyExpiry } from '../../core/credentials/expiry-notice.js';
import { describeKey, keyPath, KEYS_PATH, withoutSecret, type CreatedKeyRecord, type KeyRecord } from './records.js';
import { KEY_SCOPES, parseScopes } from './scopes.js';
import { keyPrefix } from '../../core/redact.js';
import { stdoutDestination, writeRecord } from '../../output/index.js';
import { KEYS_VIEW } from './view.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export interface CreateOptions {
  name?: string;
  scope?: string[];
  expiresIn?: string;
  expiresAt?: string;
  storeAs?: string;
}

export const STORE_NOW = 'Store it now: it cannot be shown again.';
const MAX_NAME = 200;

function requireName(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '') throw new UsageError('keys create needs --name NAME (what the key is for, e.g. "ci deploy bot")');
  if (trimmed.length > MAX_NAME) throw new UsageError(`--name is at most ${MAX_NAME} characters, got ${trimmed.length}`);
  return trimmed;
}

/** The profile --store-as names: it must exist and point at the origin this key is created on. */
async function storeTarget(ctx: Context, name: string, baseUrl: string): Promise<Profile> {
  const profileName = validateProfileName(name);
  const config = await ctx.config();
  const profile = config.getProfile(profileName);
  if (!profile) {
    throw new UsageError(`--store-as: no profile "${profileName}"`, {
      hint: `\`appraisal profiles list\` shows the profiles; create one with \`appraisal auth login --profile ${profileName} --base-url ${displayOrigin(baseUrl)}\``,
    });
  }
  if (originOf(profile.baseUrl) !== originOf(baseUrl)) {
    throw new SafetyError(
      `--store-as: profile "${profileName}" points at ${displayOrigin(profile.baseUrl)}, but this key is created on ${displayOrigin(baseUrl)}; credentials never move between environments`,
      {
        hint: `store it in a profile of ${displayOrigin(baseUrl)}, or create the key with that profile: \`appraisal keys create --profile ${profileName} …\``,
      },
    );
  }
  return profile;
}

function metadataLines(record: KeyRecord): string[] {
  const scopes = Array.isArray(record.scopes) ? record.scopes.join(' ') : '';
  return [
    `Created key ${describeKey(record)}: id ${record.id}`,
    `  scopes: ${scopes || '(none)'}`,
    `  expires: ${typeof record.expiresAt === 'string' && record.expiresAt ? record.expiresAt : 'never'}`,
  ];
}

export async function runCreate(ctx: Context, options: CreateOptions): Promise<void> {
  // Everything is checked before any request.
  const name = requireName(options.name);
  const scopes = parseScopes(options.scope);
  const expiresAt = requestedExpiry(options, ctx.now());
  if (ctx.output.outPath !== undefined && options.storeAs === undefined) {
    throw new UsageError('keys create never writes the key to a file (--out)', {
      hint: 'pipe stdout into your secret store, or put the key straight into a profile with --store-as PROFILE',
    });
  }
  const session = await ctx.session();
  const target = options.storeAs === undefined ? undefined : await storeTarget(ctx, options.storeAs, session.baseUrl);

  const api = await ctx.api();
  const body: Record<string, unknown> = { name, scopes };
  if (expiresAt !== undefined) body.expiresAt = expiresAt;
  const created = await api.send<CreatedKeyRecord>('POST', KEYS_PATH, body);
  const secret = created?.secret;
  if (typeof secret === 'string' && secret !== '') rememberSecret(ctx.io, secret);
  if (typeof secret !== 'string' || secret === '' || typeof created?.id !== 'string') {
    const id = typeof created?.id === 'string' ? created.id : undefined;
    // A key nobody holds the secret of is only a liability.
    const revoked =
      id !== undefined &&
      (await api.send('DELETE', keyPath(id)).then(
        () => true,
        () => false,
      ));
    throw new ContractError(
      `POST ${KEYS_PATH} did not return the new key's id and secret${revoked ? '; the key it created was revoked' : ''}`,
    );
  }
  const record = withoutSecret(created) as KeyRecord;
  const prefix = typeof created.prefix === 'string' && created.prefix !== '' ? created.prefix : keyPrefix(secret);

  if (target) {
    await storeInProfile(ctx, target, secret, { ...record, prefix });
    for (const line of metadataLines({ ...record, prefix })) ctx.io.writeErr(line);
    ctx.io.writeErr(
      `Stored it for profile ${target.name} (${target.keyStorage === 'insecure-file' ? 'insecure-storage file' : 'OS keychain'}); the key itself is not shown`,
    );
    if (target.keyPrefix && target.keyPrefix !== prefix) {
      ctx.io.notice(
        `note: the key it replaced in profile ${target.name}, ${target.keyPrefix}, still works on the service until it is revoked: appraisal keys revoke ${target.keyPrefix} --yes`,
      );
    }
    if (ctx.output.formatExplicit) await writeRecord(ctx, record, KEYS_VIEW);
    else await writeText(ctx, `${prefix}\n`);
    return;
  }

  if (ctx.output.formatExplicit) {
    // Automation asked for the record: it carries the secret, this once.
    await writeRecord(ctx, created, KEYS_VIEW);
    ctx.io.writeErr(STORE_NOW);
    return;
  }
  for (const line of metadataLines({ ...record, prefix })) ctx.io.writeErr(line);
  ctx.io.writeErr(STORE_NOW);
  await writeText(ctx, `${secret}\n`);
}

async function writeText(ctx: Context, text: string): Promise<void> {
  const destination = stdoutDestination(ctx.io);
  await destination.write(text);
  await destination.finish();
}

/**
 * Put the new key into the target profile's slot and record its prefix. If that fails the key is
 * revoked at once — its secret would otherwise be lost with this process, leaving a live key nobody
 * holds.
 */
async function storeInProfile(ctx: Context, target: Profile, secret: string, record: KeyRecord): Promise<void> {
  const config = await ctx.config();
  try {
    await storeProfileKey(
      config,
      () => ctx.keychain(),
      {
        profileName: target.name,
        baseUrl: target.baseUrl,
        environment: target.environment,
        caFile: target.caFile,
        secret,
        insecure: target.keyStorage === 'insecure-file',
      },
      (message) => ctx.io.warn(message),
    );
  } catch (error) {
    const api = await ctx.api();
    const revoked = await api.send('DELETE', keyPath(record.id)).then(
      () => true,
      () => false,
    );
    const what = revoked
      ? `the new key ${record.prefix} was revoked; profile ${target.name} is unchanged`
      : `the new key ${record.prefix} could NOT be revoked and still works: revoke it with \`appraisal keys revoke ${record.prefix} --yes\``;
    const message = `could not store the new key in profile ${target.name}: ${(error as Error).message}; ${what}`;
    const hint = error instanceof AppError ? error.hint : undefined;
    throw new LocalEnvironmentError(message, { cause: error, ...(hint === undefined ? {} : { hint }) });
  }
  rememberKeyExpiry(config.dir, target.name, {
    prefix: record.prefix ?? keyPrefix(secret),
    expiresAt: record.expiresAt,
    scopes: record.scopes,
  });
}

export default defineVerb<CreateOptions>({
  name: 'create',
  writesOne: true,
  summary: 'create an API key; its secret is printed once (alone on stdout), or stored with --store-as',
  options: [
    { flags: '--name <name>', description: 'what the key is for', required: true },
    {
      flags: '--scope <scope>',
      description: 'a scope to grant; repeat (or separate with commas) for several',
      repeatable: true,
      required: true,
    },
    { flags: '--expires-in <duration>', description: 'expire after 12h, 90d, 2w … (default: never)' },
    { flags: '--expires-at <timestamp>', description: 'expire at this ISO 8601 time (default: never)' },
    {
      flags: '--store-as <profile>',
      description: "store the key in this profile's keychain entry (same origin only) and print only its prefix",
    },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [{ method: 'POST', path: KEYS_PATH }],
  examples: [
    'appraisal keys create --name "ci deploy" --scope properties:read --scope files:write --expires-in 90d',
    'appraisal keys create --name reporting --scope api:read --expires-at 2027-01-31 | vault kv put secret/appraisal key=-',
    'appraisal keys create --name staging-bot --scope api:write --store-as staging-bot',
    'appraisal keys create --name ci --scope api:read -o json   # the record, with its secret',
  ],
  notes: `Scopes: ${KEY_SCOPES.join(', ')}`,
  run: (ctx, _args, options) => runCreate(ctx, options),
});
