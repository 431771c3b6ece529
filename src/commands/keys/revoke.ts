// `appraisal keys revoke ID|PREFIX`: find exactly one key, confirm, revoke. The key this very
// command is using is refused unless --force (rotate it instead); profiles that store the key are
// named before it goes.
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { NotFoundError, SafetyError, UsageError } from '../../core/errors.js';
import { isDue, pendingFor, removePending } from '../../core/credentials/pending-revocations.js';
import { describeSource } from '../../core/credentials/credential.js';
import { originOf } from '../../core/credentials/origin.js';
import { confirmDestructive } from '../../core/guards.js';
import {
  CURRENT_KEY_PATH,
  describeKey,
  findKey,
  isKeyPrefix,
  KEY_PATH_TEMPLATE,
  keyPath,
  KEYS_PATH,
  parseKeyReference,
  type KeyRecord,
} from './records.js';
import type { Session } from '../../core/session.js';
import { CONFIRM_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export interface RevokeOptions {
  force?: boolean;
  due?: boolean;
}

/** Whether `key` is the credential this command runs with: by prefix, or by asking the service. */
async function isKeyInUse(api: ApiClient, session: Session, key: KeyRecord): Promise<boolean> {
  const credential = session.credential;
  if (!credential) return false;
  if (isKeyPrefix(credential.prefix)) return credential.prefix === key.prefix;
  try {
    return (await api.get<KeyRecord>(CURRENT_KEY_PATH))?.id === key.id;
  } catch {
    return false;
  }
}

/**
 * `keys revoke --due`: revoke the profile's old keys whose --grace period has passed (recorded by
 * `keys rotate --grace`). For cron: exit 0 with one line when nothing is due, a notice, so that
 * under -q (the documented cron line) a day on which nothing is due prints nothing to be mailed.
 */
export async function runRevokeDue(ctx: Context): Promise<void> {
  const session = await ctx.session();
  const config = await ctx.config();
  const now = ctx.now();
  const pending = pendingFor(config.dir, session.profileName);
  const origin = session.origin;
  const due = pending.filter((entry) => isDue(entry, now) && entry.origin === origin);
  for (const entry of pending.filter((item) => item.origin !== origin)) {
    ctx.io.warn(`key ${entry.prefix} belongs to ${entry.origin}, not ${origin}: run this with the profile's own base URL`);
  }
  if (due.length === 0) {
    const next = pending.filter((entry) => !isDue(entry, now)).sort((a, b) => a.dueAt.localeCompare(b.dueAt))[0];
    ctx.io.notice(
      `nothing due for profile ${session.profileName}${next ? `: ${pending.length} pending, the next (${next.prefix}) at ${next.dueAt}` : ': no pending revocations'}`,
    );
    return;
  }
  await confirmDestructive(
    ctx,
    `revoke ${due.length === 1 ? 'key' : `${due.length} keys`} ${due.map((entry) => entry.prefix).join(', ')} (grace period over)`,
  );
  const api = await ctx.api();
  const done: string[] = [];
  let failure: unknown;
  for (const entry of due) {
    try {
      await api.send('DELETE', keyPath(entry.id));
      ctx.io.writeErr(`Revoked key ${entry.prefix} (due at ${entry.dueAt})`);
      done.push(entry.id);
    } catch (error) {
      if (error instanceof NotFoundError) {
        ctx.io.notice(`key ${entry.prefix} is gone from the service already; forgotten`);
        done.push(entry.id);
      } else {
        failure ??= error;
        ctx.io.warn(`could not revoke key ${entry.prefix}: ${(error as Error).message}; it stays pending`);
      }
    }
  }
  removePending(config.dir, done);
  if (failure) throw failure;
}

export async function runRevoke(ctx: Context, reference: string | undefined, options: RevokeOptions): Promise<void> {
  if (options.due) {
    if (reference !== undefined) throw new UsageError('give a key or --due, not both');
    return runRevokeDue(ctx);
  }
  const parsed = parseKeyReference(reference);
  const session = await ctx.session();
  const api = await ctx.api();
  const key = await findKey(api, parsed, ctx.signal);
  const label = describeKey(key);
  if (typeof key.revokedAt === 'string' && key.revokedAt !== '') {
    ctx.io.notice(`key ${label} was already revoked at ${key.revokedAt}; nothing to do`);
    return;
  }

  const inUse = await isKeyInUse(api, session, key);
  const credential = session.credential;
  if (inUse && !options.force) {
    throw new SafetyError(
      `refusing to revoke key ${label}: it is the key this command is using (profile ${session.profileName}, from ${describeSource(credential!, ctx.globals.apiKeyFile)})`,
      {
        hint: `replace it without downtime with \`appraisal keys rotate --profile ${session.profileName}\`; to revoke it anyway pass --force (everything using it stops working at once)`,
      },
    );
  }

  // Profiles of this origin that store the key stop working too: say so before asking.
  const config = await ctx.config();
  const origin = session.origin;
  const holders = config
    .listProfiles()
    .filter((profile) => profile.keyStorage !== undefined && profile.keyPrefix === key.prefix && originOf(profile.baseUrl) === origin)
    .map((profile) => profile.name);
  if (holders.length > 0) {
    const plural = holders.length > 1;
    ctx.io.warn(
      `profile${plural ? 's' : ''} ${holders.join(', ')} store${plural ? '' : 's'} key ${key.prefix}; ${plural ? 'they stop' : 'it stops'} working once it is revoked`,
    );
  }

  await confirmDestructive(ctx, `revoke key ${label}${inUse ? ', the key this command is using' : ''}`);
  await api.send('DELETE', keyPath(key.id));
  ctx.io.notice(`Revoked key ${label}`);
  if (inUse) {
    ctx.io.warn(
      `key ${key.prefix} was the key in use for profile ${session.profileName}; log in with another key: appraisal auth login --profile ${session.profileName}`,
    );
  }
}

export default defineVerb<RevokeOptions>({
  name: 'revoke',
  summary: 'revoke an API key (asks first; --yes without a terminal)',
  arguments: [{ name: 'id-or-prefix', description: 'key id (UUID) or prefix (apk_xxxxxxxx)' }],
  options: [
    { flags: '--force', description: 'allow revoking the key this command is using' },
    { flags: '--due', description: 'revoke the old keys of this profile whose `keys rotate --grace` period has passed' },
  ],
  takes: [...SERVICE_OPTIONS, ...CONFIRM_OPTIONS],
  calls: [
    { method: 'GET', path: KEY_PATH_TEMPLATE },
    { method: 'GET', path: KEYS_PATH },
    { method: 'DELETE', path: KEY_PATH_TEMPLATE },
  ],
  examples: [
    'appraisal keys revoke apk_AbCd1234',
    'appraisal keys revoke 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 --yes',
    'appraisal keys revoke --due --profile ci --yes   # daily, from cron',
  ],
  run: (ctx, [reference], options) => runRevoke(ctx, reference, options),
});
