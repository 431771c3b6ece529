// The checks of `appraisal smoke`, in order. Each one is timed and ends as pass, fail or skip (with
// the reason); a failure keeps its error, whose class later decides the exit code.
import type { ApiClient, ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { AppError, ContractError, HttpError, InterruptedError, MissingCredentialError, NetworkError } from '../../core/errors.js';
import type { Session } from '../../core/session-types.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** Wall time in milliseconds (0 for skips). */
  ms: number;
  /** What was found, why it failed, or why it was skipped. */
  detail: string;
  /** For failures: what went wrong, which also picks the exit code. */
  error?: unknown;
}

/** A check body returns its detail, or asks to be skipped. */
type CheckBody = () => Promise<string | Skip>;

class Skip {
  constructor(readonly reason: string) {}
}

const skip = (reason: string) => new Skip(reason);

const DAY_MS = 24 * 60 * 60 * 1000;
/** Within this, a key is "about to expire": the check passes, with a warning. */
export const EXPIRY_WARNING_DAYS = 14;
/** Within this, a key would break a CI run half-way: the check fails. */
export const EXPIRY_FAIL_HOURS = 24;

/** Every readable collection gets one page listed and parsed through paginate(). */
export const FAMILY_CHECKS: ReadonlyArray<{ name: string; family: string; path: string }> = [
  { name: 'list properties', family: 'properties', path: '/api/properties' },
  { name: 'list assignments', family: 'assignments', path: '/api/assignments' },
  { name: 'list clients', family: 'clients', path: '/api/clients' },
  { name: 'list files', family: 'files', path: '/api/files' },
  { name: 'list designations', family: 'reference', path: '/api/reference/designations' },
];

const BROAD_SCOPES: Readonly<Record<'read' | 'write' | 'delete', readonly string[]>> = {
  read: ['api:read', 'api:write', 'api:delete', 'api:admin'],
  write: ['api:write', 'api:delete', 'api:admin'],
  delete: ['api:delete', 'api:admin'],
};
const FAMILY_LEVELS: Readonly<Record<'read' | 'write' | 'delete', readonly string[]>> = {
  read: ['read', 'write', 'delete'],
  write: ['write', 'delete'],
  delete: ['delete'],
};

/** Whether a key with these scopes may read/write/delete a family (API.md "Scopes"). */
export function allows(scopes: readonly string[], family: string, level: 'read' | 'write' | 'delete'): boolean {
  return scopes.some((scope) => BROAD_SCOPES[level].includes(scope) || FAMILY_LEVELS[level].some((l) => scope === `${family}:${l}`));
}

function needs(family: string, level: 'read' | 'write' | 'delete'): string {
  return `needs ${BROAD_SCOPES[level][0]} or ${family}:${level}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface SmokeOptions {
  write: boolean;
}

export interface SmokeRun {
  results: CheckResult[];
}

/**
 * Run every check against the session's service. Never throws for a failing check: the caller
 * reports them all, then decides the exit code.
 */
export async function runChecks(ctx: Context, session: Session, options: SmokeOptions, onResult?: (result: CheckResult) => void): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const record = (result: CheckResult) => {
    results.push(result);
    onResult?.(result);
    return result;
  };
  const check = async (name: string, body: CheckBody): Promise<CheckResult> => {
    if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new InterruptedError();
    const start = performance.now();
    try {
      const outcome = await body();
      if (outcome instanceof Skip) return record({ name, status: 'skip', ms: 0, detail: outcome.reason });
      return record({ name, status: 'pass', ms: elapsed(start), detail: outcome });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return record({ name, status: 'fail', ms: elapsed(start), detail: ctx.io.redactor.redact(messageOf(error)), error });
    }
  };
  const skipped = (name: string, reason: string) => record({ name, status: 'skip', ms: 0, detail: reason });

  record({ name: 'environment', status: 'pass', ms: 0, detail: `${session.environment} profile "${session.profileName}" at ${session.baseUrl}` });

  let api: ApiClient | undefined;
  const client = async () => (api ??= await ctx.api());

  // Reachable over TLS: any HTTP answer proves it; only a network/TLS failure, 429 or 5xx fails.
  await check('reachable', async () => {
    const url = new URL(session.baseUrl);
    const tls = url.protocol === 'https:';
    if (!tls && session.environment !== 'local') {
      throw new NetworkError(`${url.origin} is plain HTTP: the ${session.environment} service must be reached over TLS`);
    }
    let status: number;
    try {
      status = (await (await client()).request({ method: 'GET', path: '/api/openapi.json', auth: false, signal: ctx.signal })).status;
    } catch (error) {
      if (!(error instanceof HttpError) || error.status === 429 || error.status >= 500) throw error;
      status = error.status;
    }
    return `${url.host} answered HTTP ${status} ${tls ? 'over TLS (certificate verified)' : 'over plain HTTP (local only)'}`;
  });

  // The credential works, and says what it may do.
  let scopes: string[] | undefined;
  let key: Record<string, unknown> | undefined;
  await check('credential', async () => {
    if (!session.credential) {
      throw new MissingCredentialError(`no credential for profile "${session.profileName}"`, {
        hint: `set APPRAISAL_API_KEY, pass --api-key-file, or run \`appraisal auth login --profile ${session.profileName}\``,
      });
    }
    const current = await (await client()).get<unknown>('/api/keys/current');
    if (!isObject(current) || !Array.isArray(current.scopes) || !current.scopes.every((s) => typeof s === 'string')) {
      throw new ContractError('GET /api/keys/current did not answer a key record with a scopes list');
    }
    key = current;
    scopes = current.scopes as string[];
    const prefix = typeof current.prefix === 'string' ? current.prefix : session.credential.prefix;
    return `key ${prefix}… works; scopes: ${scopes.join(', ') || '(none)'}`;
  });

  if (!key) skipped('key expiry', 'the credential check failed');
  else {
    const current = key;
    await check('key expiry', async () => {
      const raw = current.expiresAt;
      if (raw === undefined || raw === null || raw === '') return 'the key does not expire';
      const expires = new Date(String(raw));
      if (Number.isNaN(expires.getTime())) throw new ContractError(`the key's expiresAt is not a date: "${String(raw).slice(0, 40)}"`);
      const left = expires.getTime() - ctx.now().getTime();
      if (left <= 0) {
        throw new MissingCredentialError(`the key expired on ${expires.toISOString()}`, {
          hint: 'create a new key (appraisal keys create) and give it to the CI job',
        });
      }
      if (left < EXPIRY_FAIL_HOURS * 60 * 60 * 1000) {
        throw new MissingCredentialError(`the key expires in ${plural(Math.max(1, Math.ceil(left / 3_600_000)), 'hour')} (${expires.toISOString()})`, {
          hint: 'rotate it now: appraisal keys rotate',
        });
      }
      const days = Math.floor(left / DAY_MS);
      if (days < EXPIRY_WARNING_DAYS) {
        ctx.io.warn(`the key expires in ${plural(days, 'day')} (${expires.toISOString()}); rotate it with appraisal keys rotate`);
        return `expires in ${plural(days, 'day')} (${expires.toISOString()}): rotate it soon`;
      }
      return `expires in ${plural(days, 'day')} (${expires.toISOString()})`;
    });
  }

  // One page of every family the key may read, through paginate() so the envelope is checked.
  for (const family of FAMILY_CHECKS) {
    if (!scopes) {
      skipped(family.name, 'the credential check failed');
      continue;
    }
    const granted = scopes;
    await check(family.name, async () => {
      if (!allows(granted, family.family, 'read')) return skip(`the key cannot read ${family.family} (${needs(family.family, 'read')})`);
      const pages = (await client()).paginate(family.path, { page: 1, pageSize: 10, signal: ctx.signal });
      let count = 0;
      let step = await pages.next();
      while (!step.done) {
        count++;
        step = await pages.next();
      }
      const total = step.value.total;
      return `page 1: ${plural(count, 'record')}${total === undefined ? '' : ` of ${total}`}`;
    });
  }

  let propertyTypes: string[] = [];
  if (!scopes) skipped('get enums', 'the credential check failed');
  else {
    const granted = scopes;
    await check('get enums', async () => {
      if (!allows(granted, 'reference', 'read')) return skip(`the key cannot read reference data (${needs('reference', 'read')})`);
      const enums = await (await client()).get<unknown>('/api/reference/enums');
      if (!isObject(enums)) throw new ContractError('GET /api/reference/enums did not answer an object of lists');
      const lists = Object.entries(enums).filter(([, value]) => Array.isArray(value));
      if (Array.isArray(enums.propertyTypes)) propertyTypes = enums.propertyTypes.filter((t): t is string => typeof t === 'string');
      return lists.map(([name, value]) => `${name} ${(value as unknown[]).length}`).join(', ') || 'no lists';
    });
  }

  if (!scopes) skipped('list keys', 'the credential check failed');
  else {
    const granted = scopes;
    await check('list keys', async () => {
      if (!granted.includes('api:admin') && !granted.includes('keys:admin')) return skip('the key cannot manage keys (needs api:admin or keys:admin)');
      const pages = (await client()).paginate('/api/keys', { page: 1, pageSize: 10, signal: ctx.signal });
      let count = 0;
      let step = await pages.next();
      while (!step.done) {
        count++;
        step = await pages.next();
      }
      return `page 1: ${plural(count, 'key')}${step.value.total === undefined ? '' : ` of ${step.value.total}`}`;
    });
  }

  if (options.write) await writeChecks(ctx, check, skipped, client, scopes, propertyTypes);
  return results;
}

type Check = (name: string, body: CheckBody) => Promise<CheckResult>;
type Skipped = (name: string, reason: string) => CheckResult;

const WRITE_CHECKS = ['create property', 'get property', 'update property', 'delete property'] as const;

/** --write: a throwaway property, created, read back, changed and deleted. */
async function writeChecks(
  ctx: Context,
  check: Check,
  skipped: Skipped,
  client: () => Promise<ApiClient>,
  scopes: string[] | undefined,
  propertyTypes: readonly string[],
): Promise<void> {
  const skipAll = (reason: string) => {
    for (const name of WRITE_CHECKS) skipped(name, reason);
  };
  if (!scopes) return skipAll('the credential check failed');
  if (!allows(scopes, 'properties', 'write')) return skipAll(`the key cannot create properties (${needs('properties', 'write')})`);
  if (!allows(scopes, 'properties', 'delete')) {
    return skipAll(`the key cannot delete properties (${needs('properties', 'delete')}), so a throwaway property would be left behind`);
  }
  const name = `appraisal-smoke ${ctx.now().toISOString()}`;
  let created: ApiRecord | undefined;
  await check('create property', async () => {
    const api = await client();
    const record = await api.send<unknown>('POST', '/api/properties', {
      name,
      propertyType: propertyTypes[0] ?? 'Office',
      address: { line1: '1 Smoke Test Way', city: 'Testville', region: 'CA', postalCode: '94000', country: 'US' },
    });
    if (!isObject(record) || typeof record.id !== 'string' || record.id === '') {
      throw new ContractError('POST /api/properties did not answer a record with an id');
    }
    created = record as ApiRecord;
    return `created ${record.id}`;
  });
  if (!created) {
    skipped('get property', 'nothing was created');
    skipped('update property', 'nothing was created');
    skipped('delete property', 'nothing was created');
    return;
  }
  const path = `/api/properties/${encodeURIComponent(created.id)}`;
  const id = created.id;
  await check('get property', async () => {
    const record = await (await client()).get<unknown>(path);
    if (!isObject(record) || record.id !== id) throw new ContractError(`GET ${path} answered another record`);
    if (record.name !== name) throw new ContractError(`GET ${path}: the name read back differs from the one created`);
    return `read back ${id}`;
  });
  await check('update property', async () => {
    const changed = `${name} (updated)`;
    const record = await (await client()).send<unknown>('PATCH', path, { name: changed });
    if (!isObject(record) || record.id !== id) throw new ContractError(`PATCH ${path} answered another record`);
    if (record.name !== changed) throw new ContractError(`PATCH ${path}: the change did not stick`);
    return `renamed ${id}`;
  });
  // Always clean up, whatever the read and update checks found.
  await check('delete property', async () => {
    await (await client()).send('DELETE', path);
    return `deleted ${id}`;
  });
}

/** The error whose class picks the exit code: the first failure's. */
export function firstFailure(results: readonly CheckResult[]): CheckResult | undefined {
  return results.find((result) => result.status === 'fail');
}

/** Whether an error is one of ours (so it has an exit code of its own). */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
