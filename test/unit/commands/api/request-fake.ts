// A fake ApiClient whose every call goes through one route table keyed by "METHOD /path", for the
// api, smoke and OpenAPI tests. Handlers return a body, a full response, or throw.
import type {
  ApiClient,
  ApiRecord,
  ApiResponse,
  HttpMethod,
  PaginateOptions,
  PaginateSummary,
  RequestOptions,
} from '../../../../src/core/api-client.js';

export interface Exchange {
  method: HttpMethod;
  path: string;
  query?: unknown;
  body?: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
  auth?: boolean | undefined;
  paginate?: PaginateOptions;
}

export type Handler = (exchange: Exchange) => unknown;

/** A handler's answer with a status and headers of its own. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface RouteFake {
  api: ApiClient;
  calls: Exchange[];
}

export function routeApi(routes: Record<string, Handler>, baseUrl = 'https://api.test'): RouteFake {
  const calls: Exchange[] = [];
  const route = (exchange: Exchange): unknown => {
    calls.push(exchange);
    const handler = routes[`${exchange.method} ${exchange.path}`];
    if (!handler) throw new Error(`no route for ${exchange.method} ${exchange.path}`);
    return handler(exchange);
  };
  const respond = async <T>(exchange: Exchange): Promise<ApiResponse<T>> => {
    const answer = await route(exchange);
    if (answer instanceof Reply) return { status: answer.status, headers: answer.headers, body: answer.body as T, requestId: undefined };
    return { status: answer === undefined ? 204 : 200, headers: {}, body: answer as T, requestId: undefined };
  };
  const unwrap = (body: unknown) =>
    typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true ? (body as { data: unknown }).data : body;
  const api: ApiClient = {
    baseUrl,
    credential: { prefix: 'apk_test1234', source: 'env', kind: 'api-key' },
    async request<T>(options: RequestOptions) {
      return respond<T>({
        method: options.method,
        path: options.path,
        query: options.query,
        body: options.body,
        headers: options.headers,
        auth: options.auth,
      });
    },
    async get<T>(path: string) {
      return unwrap((await respond({ method: 'GET', path })).body) as T;
    },
    async send<T>(method: HttpMethod, path: string, body?: unknown) {
      const response = await respond({ method, path, body });
      return unwrap(response.body) as T;
    },
    async *paginate(path: string, options: PaginateOptions = {}): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
      const records = (await route({ method: 'GET', path, query: options.query, paginate: options })) as ApiRecord[];
      const limited = options.maxItems === undefined ? records : records.slice(0, options.maxItems);
      yield* limited;
      return { count: limited.length, total: records.length, duplicatesDropped: 0, warnings: [] };
    },
    upload: () => Promise.reject(new Error('upload not faked')),
    download: () => Promise.reject(new Error('download not faked')),
    retryPolicy: { retries: 0, baseMs: 0, capMs: 0, random: () => 0 },
    withCredential: () => {
      throw new Error('withCredential not faked');
    },
    close: async () => {},
  };
  return { api, calls };
}
