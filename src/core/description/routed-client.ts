// An ApiClient bound to the service's description: every request of a declared operation goes to
// the path the service publishes, and single answers and lists are read in the envelope form its
// response schema declares. Everything else (retries, redaction, errors) is the wrapped client's.
import type {
  ApiClient,
  ApiRecord,
  ApiResponse,
  DownloadResponse,
  HttpMethod,
  PaginateOptions,
  PaginateSummary,
  Query,
  RequestOptions,
  UploadOptions,
  UploadResult,
} from '../api-client.js';
import type { ResolvedCredential } from '../credentials/credential.js';
import { listRecordsOf, unwrapObject } from '../http/envelope.js';
import type { Binding, Route } from './operation-binding.js';
import { ListContract, onePieceQuery } from './list-contract.js';

/** The binding behind a client, when the command's operations were bound (commands use it for --validate). */
export function bindingOf(api: ApiClient): Binding | undefined {
  return api instanceof BoundApiClient ? api.binding : undefined;
}

/** What the description says of the list at `path` (list-contract.ts), when the client is bound to it. */
export function listContractOf(api: ApiClient, path: string): ListContract | undefined {
  const binding = bindingOf(api);
  const route = binding?.route('GET', path);
  return binding && route ? new ListContract(route.bound.published, binding) : undefined;
}

class BoundApiClient implements ApiClient {
  constructor(
    private readonly inner: ApiClient,
    /** The operations bound for the command: the client carries its own binding. */
    readonly binding: Binding,
  ) {}

  get baseUrl() {
    return this.inner.baseUrl;
  }

  get credential() {
    return this.inner.credential;
  }

  get retryPolicy() {
    return this.inner.retryPolicy;
  }

  private route(method: HttpMethod, path: string): Route | undefined {
    return this.binding.route(method, path);
  }

  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>> {
    const route = this.route(options.method, options.path);
    return this.inner.request<T>(route ? { ...options, path: route.path } : options);
  }

  async get<T = unknown>(path: string, query?: Query): Promise<T> {
    const route = this.route('GET', path);
    if (!route) return this.inner.get<T>(path, query);
    const response = await this.inner.request({ method: 'GET', path: route.path, query });
    return unwrapObject(
      response.body,
      { status: response.status, method: 'GET', path: route.path },
      true,
      route.bound.published.envelope,
    ) as T;
  }

  async send<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
    const route = this.route(method, path);
    if (!route) return this.inner.send<T>(method, path, body);
    const response = await this.inner.request({ method, path: route.path, body });
    if (response.status === 204) return undefined as T;
    return unwrapObject(response.body, { status: response.status, method, path: route.path }, false, route.bound.published.envelope) as T;
  }

  paginate(path: string, options: PaginateOptions = {}): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
    const route = this.route('GET', path);
    const form = route?.bound.published.envelope;
    if (!route || form === undefined || form === 'collection' || form === 'unknown' || form === 'record')
      return this.inner.paginate(route?.path ?? path, options);
    return this.wholeList(route, form, options);
  }

  /**
   * A list the service answers in one piece (no pages): a bare array or `{success, data: [...]}`.
   * --page/--page-size go as the operation's published page/limit, or are refused (list-contract.ts).
   */
  private async *wholeList(
    route: Route,
    form: 'data' | 'array',
    options: PaginateOptions,
  ): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
    const { path } = route;
    const paging = onePieceQuery(route.bound.published, {
      page: options.page,
      pageSize: options.pageSize,
      resume: options.resume !== undefined,
    });
    const response = await this.inner.request({ method: 'GET', path, query: { ...options.query, ...paging }, signal: options.signal });
    const records = listRecordsOf(response.body, form, { status: response.status, method: 'GET', path });
    const wanted = options.maxItems === undefined ? records : records.slice(0, options.maxItems);
    options.onProgress?.({ fetched: wanted.length, total: records.length });
    yield* wanted;
    return { count: wanted.length, total: records.length, duplicatesDropped: 0, warnings: [] };
  }

  upload(options: UploadOptions): Promise<UploadResult> {
    const route = this.route('POST', options.path);
    return this.inner.upload(route ? { ...options, path: route.path } : options);
  }

  download(path: string, signal?: AbortSignal): Promise<DownloadResponse> {
    return this.inner.download(this.route('GET', path)?.path ?? path, signal);
  }

  withCredential(credential: ResolvedCredential): ApiClient {
    return bindClient(this.inner.withCredential(credential), this.binding);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export function bindClient(inner: ApiClient, binding: Binding): ApiClient {
  return new BoundApiClient(inner, binding);
}
