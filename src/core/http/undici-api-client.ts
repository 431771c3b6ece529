// The ApiClient of src/core/api-client.ts over undici: one dispatcher (keep-alive, extra CA,
// proxies) shared by every request, and the pieces of this folder composed behind the interface.
// Made only by the context (core/factory.ts), from the one ClientSettings shape (api-client.ts).
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type {
  ApiClient,
  ApiRecord,
  ApiResponse,
  ClientSettings,
  DownloadResponse,
  HttpMethod,
  PaginateOptions,
  PaginateSummary,
  Query,
  RequestOptions,
  RetryPolicy,
  UploadOptions,
  UploadResult,
} from '../api-client.js';
import type { CredentialInfo, ResolvedCredential } from '../credentials/credential.js';
import { DEFAULT_MIN_RATE } from '../min-rate.js';
import { openDispatcher, proxyFor } from './agent.js';
import { startDownload } from './download.js';
import { unwrapObject } from './envelope.js';
import { paginate, type PagingRuntime } from './paginate.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './response-body.js';
import { retryPolicy } from './retry.js';
import { Transport } from './transport.js';
import { uploadFile } from './upload.js';
import { parseBaseUrl } from './url-guard.js';

export function createApiClient(settings: ClientSettings): ApiClient {
  const baseUrl = parseBaseUrl(settings.baseUrl);
  const { dispatcher, warm, closeWarm } = openDispatcher({ caFile: settings.caFile, env: settings.env, timeoutMs: settings.timeoutMs });
  // Which proxy an origin goes through, worked out once per origin: every request asks (for its
  // failure message), and reading six proxy variables each time showed in an export's profile.
  const proxies = new Map<string, string | undefined>();
  const proxyOf = (url: URL): string | undefined => {
    if (!proxies.has(url.origin)) proxies.set(url.origin, proxyFor(url, settings.env));
    return proxies.get(url.origin);
  };
  const transport = new Transport({
    baseUrl,
    profileName: settings.profileName,
    credential: settings.credential,
    timeoutMs: settings.timeoutMs,
    retry: retryPolicy(settings.retries, settings.env),
    userAgent: settings.userAgent,
    maxResponseBytes: settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    minRate: settings.minRate === 'off' ? undefined : (settings.minRate ?? DEFAULT_MIN_RATE),
    io: settings.io,
    signal: settings.signal,
    dispatcher,
    proxyFor: proxyOf,
    onAnswer: settings.onAnswer,
  });
  if (settings.connectAhead) warm(baseUrl, 1);
  return new HttpApiClient(transport, {
    dispatcher,
    closeWarm,
    closed: false,
    downloads: new Set(),
    paging: { favourSmallHeap: settings.favourSmallHeap, openConnections: (count) => warm(baseUrl, count) },
  });
}

/** The dispatcher is owned by the first client; clients made by withCredential share it. */
interface SharedDispatcher {
  dispatcher: Dispatcher;
  /** Closes the connections opened ahead for paging and never used. */
  closeWarm: () => void;
  closed: boolean;
  /** Download bodies handed out and still open. */
  downloads: Set<Readable>;
  /** What paging may ask of the process (a small heap), for this client and those made by withCredential. */
  paging: PagingRuntime;
}

class HttpApiClient implements ApiClient {
  readonly baseUrl: string;
  readonly credential: CredentialInfo | undefined;
  readonly retryPolicy: RetryPolicy;

  constructor(
    private readonly transport: Transport,
    private readonly shared: SharedDispatcher,
    private readonly ownsDispatcher = true,
  ) {
    this.baseUrl = transport.config.baseUrl.href.replace(/\/$/, '');
    this.retryPolicy = transport.config.retry;
    const held = transport.config.credential;
    // A copy without the secret: commands may print this.
    this.credential = held ? { prefix: held.prefix, source: held.source, kind: held.kind } : undefined;
  }

  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>> {
    return this.transport.json<T>(options);
  }

  async get<T = unknown>(path: string, query?: Query): Promise<T> {
    const response = await this.transport.json({ method: 'GET', path, query });
    return unwrapObject(response.body, { status: response.status, method: 'GET', path }, true) as T;
  }

  async send<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
    const response = await this.transport.json({ method, path, body });
    if (response.status === 204) return undefined as T;
    return unwrapObject(response.body, { status: response.status, method, path }, false) as T;
  }

  paginate(path: string, options: PaginateOptions = {}): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
    const fetchPage = async (page: number, limit: number | undefined, signal: AbortSignal): Promise<unknown> => {
      const query: Query = { ...options.query, page, limit };
      return (await this.transport.jsonDeferred({ method: 'GET', path, query, signal })).body;
    };
    return paginate(fetchPage, path, options, this.shared.paging);
  }

  upload(options: UploadOptions): Promise<UploadResult> {
    return uploadFile(this.transport, options);
  }

  download(path: string, signal?: AbortSignal): Promise<DownloadResponse> {
    return startDownload(this.transport, path, signal, this.shared.downloads);
  }

  withCredential(credential: ResolvedCredential): ApiClient {
    return new HttpApiClient(new Transport({ ...this.transport.config, credential }), this.shared, false);
  }

  async close(): Promise<void> {
    // A derived client (withCredential) leaves the shared connections to the client that made them.
    if (!this.ownsDispatcher || this.shared.closed) return;
    this.shared.closed = true;
    // Closing waits for every request in flight, and a download body nobody reads would hold it
    // until the body timeout: end those first.
    for (const body of this.shared.downloads) body.destroy();
    this.shared.closeWarm();
    // After Ctrl-C nothing in flight is wanted: a graceful close would wait for a server that may
    // never answer (up to --timeout).
    if (this.transport.config.signal.aborted) await this.shared.dispatcher.destroy();
    else await this.shared.dispatcher.close();
  }
}
