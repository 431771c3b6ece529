// `appraisal keys scan PATH…`: find API keys where they must never be — source trees, logs,
// exported tickets, and with --git the whole history of a repository. Prints file, line and the
// key's prefix only, asks the service which are live (GET /api/keys, by prefix: an admin key is
// needed, else it says it cannot tell), and with --revoke revokes the live ones (confirmation,
// production banner, --audit-log). Exit 20 when a live key is found.
import { dirname, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { Context } from '../../core/context.js';
import { childEnvironment } from '../../core/child-env.js';
import { AuthenticationError, FindingsError, MissingCredentialError, PermissionError, UsageError } from '../../core/errors.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { confirmDestructive } from '../../core/guards.js';
import { writeRecords, type View } from '../../output/index.js';
import { openAuditLog, type AuditLog } from './rotation/audit-log.js';
import { allKeys, KEY_PATH_TEMPLATE, keyPath, KEYS_PATH, type KeyRecord } from './records.js';
import { keyPattern, scanPaths, type Match } from './scanning/find-in-files.js';
import { repositoryRoot, scanHistory } from './scanning/git-history.js';
import { defineVerb } from '../../core/verb.js';

export interface ScanOptions {
  git?: boolean;
  revoke?: boolean;
  pattern?: string;
  auditLog?: string;
}

export const SCAN_VIEW: View = { label: 'keys found', singular: 'key found', columns: ['status', 'prefix', 'file', 'line'] };

type Status = 'live' | 'revoked' | 'expired' | 'unknown to the service' | 'cannot tell';

async function findEverything(ctx: Context, paths: readonly string[], options: ScanOptions): Promise<Match[]> {
  const pattern = keyPattern(options.pattern);
  const absolute = paths.map((path) => resolve(ctx.cwd, path));
  const matches = await scanPaths(absolute, ctx.cwd, pattern, undefined, paths);
  if (options.git) {
    const run = { env: childEnvironment(ctx.env, ctx.io.redactor) };
    const roots = new Set<string>();
    for (const path of absolute) {
      const isDir = (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
      roots.add(await repositoryRoot(isDir ? path : dirname(path), run));
    }
    for (const root of roots) matches.push(...(await scanHistory(root, pattern, run)));
  }
  return matches;
}

/** The service's records of the keys found, by prefix; or why that cannot be known. */
async function lookUp(
  ctx: Context,
): Promise<{ keys: Map<string, KeyRecord>; inUse: string | undefined } | { cannotTell: string; error: unknown }> {
  try {
    const session = await ctx.session();
    if (!session.credential) throw new MissingCredentialError('no credential');
    const keys = await allKeys(await ctx.api(), ctx.signal);
    return {
      keys: new Map(keys.filter((key) => typeof key.prefix === 'string').map((key) => [key.prefix!, key])),
      inUse: session.credential.prefix,
    };
  } catch (error) {
    if (error instanceof PermissionError) return { cannotTell: 'listing keys needs an admin key (keys:admin or api:admin)', error };
    if (error instanceof AuthenticationError || error instanceof MissingCredentialError || error instanceof UsageError) {
      return { cannotTell: (error as Error).message, error };
    }
    throw error;
  }
}

function statusOf(record: KeyRecord | undefined, now: Date): Status {
  if (!record) return 'unknown to the service';
  if (typeof record.revokedAt === 'string' && record.revokedAt !== '') return 'revoked';
  if (typeof record.expiresAt === 'string' && Date.parse(record.expiresAt) <= now.getTime()) return 'expired';
  return 'live';
}

export async function runScan(ctx: Context, paths: readonly string[], options: ScanOptions): Promise<void> {
  if (paths.length === 0) throw new UsageError('keys scan needs at least one PATH (a file or a directory)');
  let audit: AuditLog | undefined;
  if (options.auditLog !== undefined) {
    if (!options.revoke) throw new UsageError('--audit-log records revocations: it needs --revoke');
    audit = await openAuditLog(options.auditLog, ctx.cwd, (text) => ctx.io.redactor.redact(text));
  }
  try {
    const matches = await findEverything(ctx, paths, options);
    const prefixes = [...new Set(matches.map((match) => match.prefix))];
    const known = prefixes.length > 0 ? await lookUp(ctx) : { keys: new Map<string, KeyRecord>(), inUse: undefined };
    const now = ctx.now();
    // What --revoke revoked: their records are printed as they now are, not as they were found.
    const revoked: string[] = [];
    const status = (prefix: string): Status =>
      'cannotTell' in known ? 'cannot tell' : revoked.includes(prefix) ? 'revoked' : statusOf(known.keys.get(prefix), now);
    // Live when found: the keys --revoke revokes, and the count in the summary and the error.
    const live = prefixes.filter((prefix) => status(prefix) === 'live');

    // Revoke before printing, so that each record's status is true when it is read. A revocation
    // that fails (or is not confirmed) still lets the records be printed, then ends the command.
    let failure: unknown;
    if (!('cannotTell' in known) && live.length > 0 && options.revoke) {
      try {
        await revokeLive(ctx, live, known, matches, audit, revoked);
      } catch (error) {
        failure = error;
      }
    }

    async function* records() {
      for (const match of matches)
        yield { status: status(match.prefix), prefix: match.prefix, file: match.file, line: match.line, commit: match.commit ?? null };
    }
    await writeRecords(ctx, records(), SCAN_VIEW);
    ctx.io.writeErr(
      `Found ${matches.length} key${matches.length === 1 ? '' : 's'} (${prefixes.length} distinct prefix${prefixes.length === 1 ? '' : 'es'})${'cannotTell' in known ? '' : `; ${live.length} live`}`,
    );

    if ('cannotTell' in known) {
      ctx.io.warn(`cannot tell which of them are live: ${known.cannotTell}`);
      if (options.revoke) throw known.error;
      ctx.io.notice('note: run it with an admin key (keys:admin or api:admin) to check them against the service');
      return;
    }
    if (failure !== undefined) throw failure;
    if (live.length > 0) {
      const left = live.filter((prefix) => !revoked.includes(prefix));
      throw new FindingsError(
        `${live.length} live key${live.length === 1 ? '' : 's'} found: ${live.join(', ')}${revoked.length > 0 ? `; revoked ${revoked.join(', ')}` : ''}`,
        {
          hint:
            left.length > 0
              ? `revoke ${left.length === 1 ? 'it' : 'them'} now (appraisal keys scan … --revoke, or appraisal keys revoke PREFIX --yes), then remove ${left.length === 1 ? 'it' : 'them'} from the files and the history`
              : 'remove the keys from the files (and rewrite the history); whatever used them needs a new key',
        },
      );
    }
  } finally {
    await audit?.close();
  }
}

/**
 * Revoke the live keys found (not the one this command uses), after confirmation. Each is added to
 * `revoked` once the service has revoked it, so a failure midway leaves the list of those done.
 */
async function revokeLive(
  ctx: Context,
  live: readonly string[],
  known: { keys: Map<string, KeyRecord>; inUse: string | undefined },
  matches: readonly Match[],
  audit: AuditLog | undefined,
  revoked: string[],
): Promise<void> {
  const targets = live.filter((prefix) => {
    if (prefix !== known.inUse) return true;
    ctx.io.warn(
      `key ${prefix} is the key this command is using: not revoked here; replace it with \`appraisal keys rotate\` (or revoke it with another admin key)`,
    );
    return false;
  });
  if (targets.length === 0) return;
  await confirmDestructive(ctx, `revoke ${targets.length === 1 ? 'leaked key' : `${targets.length} leaked keys`} ${targets.join(', ')}`);
  const api = await ctx.api();
  for (const prefix of targets) {
    const record = known.keys.get(prefix)!;
    await api.send('DELETE', keyPath(record.id));
    revoked.push(prefix);
    const where = matches.filter((match) => match.prefix === prefix).map((match) => `${match.file}:${match.line}`);
    ctx.io.writeErr(
      `Revoked key ${prefix} (found in ${where.slice(0, 3).join(', ')}${where.length > 3 ? `, and ${where.length - 3} more` : ''})`,
    );
    await audit?.append({
      at: ctx.now().toISOString(),
      action: 'revoke',
      reason: 'keys scan: found outside a secret store',
      prefix,
      keyId: record.id,
      foundIn: where,
    });
  }
}

export default defineVerb<ScanOptions>({
  name: 'scan',
  summary: 'find API keys in files (and with --git, in a repository history); prefixes only; asks the service which are live',
  arguments: [{ name: 'path', description: 'files or directories to search', required: true, variadic: true }],
  options: [
    { flags: '--git', description: 'also search every commit of the git repository each PATH is in' },
    { flags: '--revoke', description: 'revoke the live keys found (asks first; --yes without a terminal)' },
    { flags: '--pattern <regex>', description: 'what a key looks like (default: apk_ + 8 + _ + 32 letters or digits)' },
    { flags: '--audit-log <path>', description: 'with --revoke: append one JSON line per revoked key to PATH (mode 0600; prefixes only)' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CONFIRM_OPTIONS],
  calls: [
    { method: 'GET', path: KEYS_PATH },
    { method: 'DELETE', path: KEY_PATH_TEMPLATE },
  ],
  examples: [
    'appraisal keys scan .',
    'appraisal keys scan . --git -o json',
    'appraisal keys scan ~/exports/tickets /var/log/app --revoke --yes --audit-log revoked.jsonl',
  ],
  notes: 'Exit 20 when a live key is found (0 when none is, or when it cannot tell without an admin key).',
  run: (ctx, paths, options) => runScan(ctx, paths, options),
});
