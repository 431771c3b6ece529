// How `keys list` and `keys audit` tell lease keys (named by `keys lease`, see core/credentials/lease-name.ts):
// list marks each record with `lease: true|false`; audit adds a finding to a lease that is neither
// revoked nor expired while the process that held it is gone — nothing will revoke it now but its
// TTL — and says who holds one it cannot check (another host).
import type { Context } from '../../../core/context.js';
import { processAlive, thisHost } from '../../../core/process-facts.js';
import { SEVERITIES, type AuditedKey, type Severity } from '../audit-findings.js';
import { recordMappingClient } from '../view.js';
import { isLeaseName, leaseHolder } from '../../../core/credentials/lease-name.js';

/** The context for `keys list`: every key record read carries `lease`. */
export function leaseMarkingContext(ctx: Context): Context {
  return { ...ctx, api: async () => recordMappingClient(await ctx.api(), (record) => ({ ...record, lease: isLeaseName(record.name) })) };
}

export interface HostFacts {
  host: string;
  alive(pid: number): boolean;
}

const LOCAL: HostFacts = { host: '', alive: processAlive };

function rank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

function active(key: AuditedKey, now: Date): boolean {
  if (key.revokedAt !== null) return false;
  return key.expiresAt === null || Date.parse(key.expiresAt) > now.getTime();
}

/** The audit with lease findings added, worst first again. */
export function withLeaseFindings(
  audited: readonly AuditedKey[],
  now: Date,
  facts: HostFacts = { ...LOCAL, host: thisHost() },
): AuditedKey[] {
  const out = audited.map((key): AuditedKey => {
    const holder = leaseHolder(key.name);
    if (!holder || !active(key, now)) return key;
    if (holder.host === facts.host && !facts.alive(holder.pid)) {
      const revoke = `appraisal keys revoke ${key.prefix ?? key.id} --yes`;
      const finding = `warning: lease outlived its process (pid ${holder.pid} on ${holder.host} is gone); revoke it: ${revoke}`;
      return { ...key, severity: rank(key.severity) <= rank('warning') ? key.severity : 'warning', findings: [finding, ...key.findings] };
    }
    const where = holder.host === facts.host ? 'running' : 'not checkable from this host';
    return { ...key, findings: [...key.findings, `info: lease held by pid ${holder.pid} on ${holder.host} (${where})`] };
  });
  return out.sort((a, b) => rank(a.severity) - rank(b.severity) || Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
}
