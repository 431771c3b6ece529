// How key records are shown, and the context the read-only keys commands run with: every record
// read back passes through withoutSecret, so list and get never print a secret even if a service
// sent one.
import type { ApiClient, ApiRecord, PaginateSummary } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { withoutSecret } from './records.js';
import type { View } from '../../output/index.js';

export const KEYS_VIEW: View = {
  label: 'API keys',
  singular: 'API key',
  columns: ['prefix', 'name', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'revokedAt'],
  // At 80 columns state (revoked, expiring) stays before decoration (name, scopes): issue 25 §2.
  priority: ['prefix', 'revokedAt', 'expiresAt', 'name', 'lastUsedAt', 'scopes', 'createdAt'],
  blank: { expiresAt: 'never' },
};

function strip<T>(value: T): T {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (withoutSecret(value as Record<string, unknown>) as T)
    : value;
}

/** Every record of the pages through `change`; stopped early (| head, --max-items, an error), it stops fetching too. */
async function* mappedPages(
  pages: AsyncGenerator<ApiRecord, PaginateSummary, undefined>,
  change: (record: ApiRecord) => ApiRecord,
): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
  let done = false;
  try {
    for (;;) {
      const step = await pages.next();
      if (step.done) {
        done = true;
        return step.value;
      }
      yield change(step.value);
    }
  } finally {
    if (!done) await pages.return(undefined as never).catch(() => undefined);
  }
}

/**
 * The same client, with every record it pages through passed through `change` (and, when `single`
 * is given, every record `get`/`send` answer with). The keys commands layer these: secret-free,
 * lease-marked.
 */
export function recordMappingClient(api: ApiClient, change: (record: ApiRecord) => ApiRecord, single?: <T>(value: T) => T): ApiClient {
  return {
    get baseUrl() {
      return api.baseUrl;
    },
    get credential() {
      return api.credential;
    },
    get retryPolicy() {
      return api.retryPolicy;
    },
    request: (options) => api.request(options),
    get: single ? async (path, query) => single(await api.get(path, query)) : (path, query) => api.get(path, query),
    send: single ? async (...args) => single(await api.send(...args)) : (...args) => api.send(...args),
    paginate: (path, options) => mappedPages(api.paginate(path, options), change),
    upload: (options) => api.upload(options),
    download: (path, signal) => api.download(path, signal),
    withCredential: (credential) => api.withCredential(credential),
    close: () => api.close(),
  };
}

/** The same client, with `secret` removed from every record it reads. */
export function secretFreeClient(api: ApiClient): ApiClient {
  return recordMappingClient(api, (record) => withoutSecret(record) as ApiRecord, strip);
}

/** The context with a secret-free client, for list and get. */
export function secretFreeContext(ctx: Context): Context {
  return { ...ctx, api: async () => secretFreeClient(await ctx.api()) };
}
