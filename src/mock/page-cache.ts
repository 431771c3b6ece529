// `appraisal mock --prerender`: each collection page is serialised once and its bytes served again
// for the same URL, until anything changes. Benchmarks use it so the mock spends less CPU than the
// client it serves (a 2-core machine runs both); the bytes are identical to a fresh rendering.
import type { ResourceFamily } from '../model/families.js';
import type { MockResponse } from './http/mock-response.js';

export class PageCache {
  private readonly pages = new Map<string, Buffer>();
  /**
   * The model's collections whose records have ids (their pages change only through a write; keys
   * change on every use, lastUsedAt): each family's path, contacts' included.
   */
  private readonly cacheable: ReadonlySet<string>;

  constructor(families: readonly ResourceFamily[]) {
    this.cacheable = new Set(families.filter((family) => family.operations.get !== undefined).map((family) => family.path));
  }

  /** The cached page for GET `pathAndQuery`, if any. */
  lookup(method: string, path: string, search: string): MockResponse | undefined {
    if (method !== 'GET' || !this.cacheable.has(path)) return undefined;
    const data = this.pages.get(path + search);
    return data && pageResponse(data);
  }

  /** Remember a freshly rendered collection page; returns the response to send (the same bytes). */
  store(method: string, path: string, search: string, response: MockResponse): MockResponse {
    const body = response.body;
    if (method !== 'GET' || !this.cacheable.has(path) || response.status !== 200 || body.kind !== 'json' || body.shape !== 'collection')
      return response;
    const data = Buffer.from(JSON.stringify(body.value), 'utf8');
    this.pages.set(path + search, data);
    return pageResponse(data, response.headers);
  }

  /** Any request that may change state (every method but GET and HEAD) drops every page. */
  invalidate(method: string): void {
    if (method !== 'GET' && method !== 'HEAD') this.pages.clear();
  }
}

function pageResponse(data: Buffer, headers?: Record<string, string>): MockResponse {
  return { status: 200, headers, body: { kind: 'bytes', data, contentType: 'application/json; charset=utf-8' } };
}
