// With the network, through the CLI's own client (proxies, CA, user-agent as every command): the
// key (accepted, scopes, expiry — only its prefix shown), the service's clock against ours from its
// `Date` header, the cached description (discovered or bundled, its age, the same as the bundled
// model or not), and whether the production guard applies. Fast: no retries, a short timeout.
import type { Context } from '../../core/context.js';
import { readCache } from '../../core/description/cache.js';
import { AppError, AuthenticationError, PermissionError } from '../../core/errors.js';
import { namedKey } from '../../core/redact.js';
import { isProductionLike } from '../../core/guards.js';
import { parseHttpDate } from '../../core/service-clock.js';
import type { Session } from '../../core/session.js';
import { error, info, ok, warning, type Item } from './finding.js';
import { DAY_MS, spanInWords } from '../../core/duration.js';

const SKEW_WARNING_MS = 30_000;
const SKEW_ERROR_MS = 5 * 60_000;

interface KeyRecord {
  prefix?: string;
  scopes?: string[];
  expiresAt?: string | null;
}

export function clockItem(date: string | undefined, now: Date): Item {
  // Read as the export watermark reads it (core/service-clock.ts): an IMF-fixdate or nothing.
  const stamp = parseHttpDate(date);
  if (stamp === undefined) return info('clock', 'the service sent no valid Date header: the clocks cannot be compared');
  const skew = now.getTime() - stamp;
  const seconds = Math.round(Math.abs(skew) / 1000);
  const which = skew > 0 ? 'ahead of' : 'behind';
  if (Math.abs(skew) >= SKEW_ERROR_MS) {
    return error(
      'clock',
      `this machine's clock is ${seconds}s ${which} the service's`,
      'sync the clock (timedatectl set-ntp true); expiry dates and --updated-since windows depend on it',
    );
  }
  if (Math.abs(skew) >= SKEW_WARNING_MS)
    return warning('clock', `this machine's clock is ${seconds}s ${which} the service's`, 'sync the clock (NTP)');
  return ok('clock', `within ${seconds}s of the service's clock`);
}

function keyItems(record: KeyRecord, now: Date): Item[] {
  const items: Item[] = [ok('key', `accepted: ${record.prefix ?? 'key'} with ${(record.scopes ?? []).join(', ') || 'no scopes'}`)];
  if (typeof record.expiresAt === 'string') {
    const left = Date.parse(record.expiresAt) - now.getTime();
    if (left <= 0) items.push(warning('key', `expired ${spanInWords(left)} ago (${record.expiresAt})`, 'appraisal keys create'));
    else if (left < 14 * DAY_MS)
      items.push(warning('key', `expires in ${spanInWords(left)} (${record.expiresAt})`, 'appraisal keys rotate'));
    else items.push(ok('key', `expires ${record.expiresAt}`));
  } else items.push(info('key', 'never expires'));
  return items;
}

async function descriptionItems(ctx: Context, baseUrl: string): Promise<Item[]> {
  const entry = await readCache(ctx, baseUrl).catch(() => undefined);
  if (!entry) return [info('description', 'none cached yet: the next command discovers it (or uses the bundled model)')];
  const ageHours = Math.round((ctx.now().getTime() - Date.parse(entry.checkedAt)) / 360_000) / 10;
  if (entry.kind === 'bundled')
    return [info('description', `the service publishes none: the bundled model is used (checked ${ageHours} h ago)`)];
  const bundled = (await import('../../../openapi.json', { with: { type: 'json' } })) as { default: unknown };
  const same = JSON.stringify(entry.document) === JSON.stringify(bundled.default);
  return [
    info(
      'description',
      `discovered at ${entry.url ?? baseUrl}, cached, checked ${ageHours} h ago; ${same ? 'the same as' : 'differs from'} the bundled model${same ? '' : ' (appraisal spec check shows how)'}`,
    ),
  ];
}

export async function checkService(ctx: Context, session: Session): Promise<Item[]> {
  const items: Item[] = [];
  items.push(
    isProductionLike(session.environment)
      ? info('guard', `${session.environment}: the production guard applies (destructive commands ask, or need --yes)`)
      : info('guard', `${session.environment}: no production guard`),
  );
  if (!session.credential) return [...items, ...(await descriptionItems(ctx, session.baseUrl))];
  let date: string | undefined;
  const api = await ctx.clientFor({
    ...session,
    retries: 0,
    timeoutMs: Math.min(ctx.globals.timeoutMs, 2000),
    onAnswer: (headers) => {
      if (headers.date !== undefined) date = headers.date;
    },
  });
  try {
    const record = await api.get<KeyRecord>('/api/keys/current');
    items.push(...keyItems(record, ctx.now()));
  } catch (thrown) {
    if (thrown instanceof AuthenticationError) {
      items.push(
        error(
          'key',
          `the service rejects the ${namedKey(session.credential.prefix)}: ${thrown.serviceMessage ?? thrown.message}`,
          `appraisal auth login --profile ${session.profileName}`,
        ),
      );
    } else if (thrown instanceof PermissionError) {
      items.push(
        warning('key', `the ${namedKey(session.credential.prefix)} may not read its own record`, 'ask for a key with at least one scope'),
      );
    } else {
      items.push(
        error(
          'service',
          `GET /api/keys/current failed: ${thrown instanceof AppError ? thrown.message : String(thrown)}`,
          'see the network checks above',
        ),
      );
    }
  } finally {
    await api.close().catch(() => undefined);
  }
  items.push(clockItem(date, ctx.now()));
  items.push(...(await descriptionItems(ctx, session.baseUrl)));
  return items;
}
