// `appraisal keys audit`: every key of the organization with what is wrong with it — expired but
// not revoked, expiring soon, never expiring, unused for long, api:admin, several active keys with
// one name, a lease (`keys lease`) that outlived its process — the worst first, and the key this
// profile uses marked. A table on a terminal, or
// -o json|csv. Exit 0 whatever it finds, unless --fail-on warning|critical (exit 20), for CI.
import type { Context } from '../../core/context.js';
import { FindingsError } from '../../core/errors.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { writeRecords, type View } from '../../output/index.js';
import { auditKeys, countAtLeast, type AuditThresholds } from './audit-findings.js';
import { parseDuration } from './expires.js';
import { allKeys, KEYS_PATH } from './records.js';
import { withLeaseFindings } from './lease/lease-marks.js';
import { defineVerb } from '../../core/verb.js';

export interface AuditOptions {
  warn?: string;
  unused?: string;
  failOn?: 'warning' | 'critical';
}

export const AUDIT_VIEW: View = {
  label: 'API keys',
  singular: 'API key',
  columns: ['severity', 'prefix', 'name', 'scopes', 'createdAt', 'expiresAt', 'daysLeft', 'lastUsedAt', 'revokedAt', 'inUse', 'findings'],
  // At 80 columns the state and the reason (findings, revoked, expiring) stay before decoration: issue 25 §2.
  priority: ['severity', 'prefix', 'findings', 'revokedAt', 'expiresAt', 'daysLeft', 'inUse', 'name', 'lastUsedAt', 'scopes', 'createdAt'],
};

export async function runAudit(ctx: Context, options: AuditOptions): Promise<void> {
  const limits: AuditThresholds = {
    warnMs: parseDuration(options.warn ?? '14d', '--warn'),
    unusedMs: parseDuration(options.unused ?? '90d', '--unused'),
  };
  const session = await ctx.session();
  const api = await ctx.api();
  const keys = await allKeys(api, ctx.signal);
  const inUse = session.credential?.prefix;
  const audited = withLeaseFindings(auditKeys(keys, ctx.now(), limits, inUse), ctx.now());
  for (const key of audited) if (key.inUse) key.findings.push(`info: the key profile ${session.profileName} uses`);

  async function* records() {
    for (const key of audited) yield key as unknown as Record<string, unknown>;
  }
  await writeRecords(ctx, records(), AUDIT_VIEW);

  const critical = countAtLeast(audited, 'critical');
  const warnings = countAtLeast(audited, 'warning') - critical;
  // A notice: scripts read the findings on stdout and the exit code, so -q leaves the summary out.
  ctx.io.notice(`Audited ${keys.length} key${keys.length === 1 ? '' : 's'}: ${critical} with critical findings, ${warnings} with warnings`);
  if (options.failOn) {
    const failing = countAtLeast(audited, options.failOn);
    if (failing > 0) {
      throw new FindingsError(
        `${failing} key${failing === 1 ? ' has' : 's have'} findings at or above ${options.failOn} (--fail-on ${options.failOn})`,
        {
          hint: 'revoke expired and unused keys (appraisal keys revoke PREFIX --yes); rotate keys that expire soon (appraisal keys rotate)',
        },
      );
    }
  }
}

export default defineVerb<AuditOptions>({
  name: 'audit',
  summary: 'every key with its findings (expired, expiring, never expiring, unused, api:admin, duplicate names), worst first',
  options: [
    { flags: '--warn <duration>', description: 'expiring within this is a warning (default 14d)' },
    { flags: '--unused <duration>', description: 'not used for this long is a warning (default 90d)' },
    {
      flags: '--fail-on <severity>',
      description: 'exit 20 when a key has a finding this severe or worse (for CI)',
      choices: ['warning', 'critical'],
    },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [{ method: 'GET', path: KEYS_PATH }],
  examples: [
    'appraisal keys audit',
    'appraisal keys audit --warn 30d --unused 60d -o csv --out keys-audit.csv',
    'appraisal keys audit --fail-on critical -q   # in CI',
  ],
  notes:
    'Severities: critical (expired but not revoked), warning (expiring within --warn, never expires,\nunused for --unused, api:admin scope), info (several active keys with one name, the key in use).\nWithout --fail-on the exit is 0 whatever is found.',
  run: (ctx, _args, options) => runAudit(ctx, options),
});
