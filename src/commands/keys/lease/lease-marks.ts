// How `keys list` and `keys audit` tell lease keys (named by `keys lease`, see lease-name.ts):
// list marks each record with `lease: true|false`; audit adds a finding to a lease that is neither
// revoked nor expired while the process that held it is gone — nothing will revoke it now but its
// TTL — and says who holds one it cannot check (another host).
import type { ApiClient, ApiRecord, PaginateSummary } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import { processAlive, thisHost } from '../../../core/process-facts.js';
import { SEVERITIES, type AuditedKey, type Severity } from '../audit-findings.js';
import { isLeaseName, leaseHolder } from './lease-name.js';

async function* marked(
  pages: AsyncGenerator<ApiRecord, PaginateSummary, undefined>,
): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
  let done = false;
  try {
    for (;;) {
      const step = await pages.next();
      if (step.done) {
        done = true;
        return step.value;
      }
      yield { ...step.value, lease: isLeaseName(step.value.name) };
    }
  } finally {
    if (!done) await pages.return(undefined as never).catch(() => undefined);
  }
}

/** The same client, with `lease` added to every record it pages through. */
function markingClient(api: ApiClient): ApiClient {
  return {
    get baseUrl() {
      return api.baseUrl;
    },
    get credential() {
      return api.credential;
    },
    request: (options) => api.request(options),
    get: (path, query) => api.get(path, query),
    send: (...args) => api.send(...args),
    paginate: (path, options) => marked(api.paginate(path, options)),
    upload: (options) => api.upload(options),
    download: (path, signal) => api.download(path, signal),
    withSecret: (secret, source) => api.withSecret(secret, source),
    close: () => api.close(),
  };
}

/** The context for `keys list`: every key record read carries `lease`. */
export function leaseMarkingContext(ctx: Context): Context {
  return { ...ctx, api: async () => markingClient(await ctx.api()) };
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
