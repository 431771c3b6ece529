// The API client, in one place: what a client is (the ApiClient interface commands program against)
// and the one settings shape it is made from (ClientSettings: the key travels in its `credential`,
// made by holdSecret, so the redactor knows it before any request), assembled by clientSettings().
// Clients are made only by the context (core/factory.ts: ctx.api() for the session, ctx.clientFor()
// for another key, signal or bound), which loads the implementation over undici
// (core/http/undici-api-client.ts) on first use. Nothing here imports it, so importing this is free.
import type { CredentialInfo, ResolvedCredential } from './credentials/credential.js';
import type { Env } from './env.js';
import type { GlobalOptions } from './global-options.js';
import type { IO } from './io.js';
import type { MinRate } from './min-rate.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];
export type Query = Readonly<Record<string, QueryValue>>;

/** Every record has an id; every other field is passed through untouched. */
export interface ApiRecord {
  id: string;
  [field: string]: unknown;
}

export interface RequestOptions {
  method: HttpMethod;
  /** Path under the base URL, starting with `/` (e.g. `/api/properties/ID`). */
  path: string;
  query?: Query;
  /** JSON body (serialized by the client). */
  body?: unknown;
  /** Extra headers. Credential headers are refused here: the client owns them. */
  headers?: Readonly<Record<string, string>>;
  /** Whether this request may be retried; default: GET/HEAD/PUT/DELETE yes, POST/PATCH no. */
  retry?: boolean;
  /** Send the credential (default true). */
  auth?: boolean;
  signal?: AbortSignal;
  /** This request's own bound on the answer's size, when smaller than the client's (the service description). */
  maxResponseBytes?: number;
  /** This request's own timeout, when shorter than the client's (the service description). */
  timeoutMs?: number;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON, or undefined for an empty body (204). */
  body: T;
  requestId: string | undefined;
}

export interface PaginationInfo {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface PageProgress {
  fetched: number;
  total: number | undefined;
}

export interface PaginateOptions {
  query?: Query;
  /** One page only (`--page N`). */
  page?: number | undefined;
  /** Sent as `limit` (`--page-size N`). */
  pageSize?: number | undefined;
  /** Stop after N records (`--max-items N`). */
  maxItems?: number | undefined;
  /** Pages fetched at once (`--concurrency N`). */
  concurrency?: number | undefined;
  /**
   * Open the connections the later pages need while page 1 travels (http/warm-connections.ts): for a
   * whole listing, which usually spans pages. Not for repeated reads that are mostly one page (a
   * watch's polls, an incremental sync): those would open them for nothing every time.
   */
  connectAhead?: boolean | undefined;
  /** Accept an export whose count differs from `total` instead of failing with exit 9. */
  allowPartial?: boolean | undefined;
  onProgress?: ((progress: PageProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Continue an interrupted export after its last complete page (`--resume`). */
  resume?: PaginateResume | undefined;
  /**
   * Called after every record of a page was taken by the consumer (so written, for an export),
   * never for the last page; paging waits for it. Resumable exports checkpoint here.
   */
  onPageDone?: ((done: PageDone) => Promise<void>) | undefined;
}

/** Where an interrupted export stopped, as its checkpoint recorded it. */
export interface PaginateResume {
  /** Pages 1..afterPage are complete. */
  afterPage: number;
  /** The page size those pages were read with. */
  limit: number;
  /** `pagination.total` the interrupted run saw; a different total now refuses to resume. */
  total: number;
  /** Records already exported. */
  count: number;
  /** Their ids, so duplicates across the interruption are still dropped. */
  ids: Iterable<string>;
}

export interface PageDone {
  page: number;
  pages: number;
  limit: number;
  total: number;
  /** Records yielded so far, all pages. */
  count: number;
  /** Ids of the records this page yielded. */
  ids: string[];
}

export interface UploadOptions {
  /** Collection path, e.g. `/api/files`. */
  path: string;
  /** Local file to stream. */
  filePath: string;
  /** Name sent in the multipart part. */
  fileName: string;
  contentType: string;
  /** Extra form fields (e.g. propertyId). */
  fields?: Readonly<Record<string, string>>;
  onProgress?: ((sentBytes: number, totalBytes: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface UploadResult {
  /** The service's answer, `{success, data}` unwrapped. */
  record: ApiRecord;
  /** sha256 (hex) computed while the bytes were sent. */
  sha256: string;
  size: number;
}

export interface DownloadResponse {
  /** The body; the caller must consume or destroy it. */
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): void };
  contentLength: number | undefined;
  contentType: string | undefined;
}

/** When and how long a client waits before trying a request again (http/retry.ts). */
export interface RetryPolicy {
  /** Retries after the first attempt (`--retries`). */
  retries: number;
  baseMs: number;
  capMs: number;
  /** In [0, 1); injectable for tests. */
  random: () => number;
}

export interface ApiClient {
  readonly baseUrl: string;
  readonly credential: CredentialInfo | undefined;
  /** How it retries a safe request (`--retries`, the backoff): a command that retries a write of its own (import's create) follows the same. */
  readonly retryPolicy: RetryPolicy;
  /** One request; non-2xx answers throw the HttpError subclass for their status. */
  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>>;
  /** GET and return the body, with the `{success, data}` envelope unwrapped; anything but a JSON object is a ContractError. */
  get<T = unknown>(path: string, query?: Query): Promise<T>;
  /** A JSON request returning the unwrapped body: a JSON object, or undefined for 204 or an empty body. */
  send<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T>;
  /** Every record of a collection, in order, fetching pages with bounded concurrency. */
  paginate(path: string, options?: PaginateOptions): AsyncGenerator<ApiRecord, PaginateSummary, undefined>;
  /** Stream a file from disk as multipart/form-data with an exact content-length. */
  upload(options: UploadOptions): Promise<UploadResult>;
  /** Start a download; the caller streams the body to its destination. */
  download(path: string, signal?: AbortSignal): Promise<DownloadResponse>;
  /** A client with the same settings and connections but another credential, made by holdSecret (key rotation verifies with it). */
  withCredential(credential: ResolvedCredential): ApiClient;
  close(): Promise<void>;
}

export interface PaginateSummary {
  /** Records yielded. */
  count: number;
  /** `pagination.total` as last reported. */
  total: number | undefined;
  duplicatesDropped: number;
  /** Notices about the export's integrity (total changed, duplicates); empty when clean. */
  warnings: string[];
}

/** Sees the headers of every answer, whatever its status. Must not throw and must not wait: it is called on the request's path. */
export type AnswerObserver = (headers: Readonly<Record<string, string | undefined>>, url: URL) => void;

/** Everything a client is made from, assembled in one function (clientSettings). */
export interface ClientSettings {
  baseUrl: string;
  /** Made by holdSecret (credentials/credential.ts), so the redactor knows it already; undefined sends no key. */
  credential: ResolvedCredential | undefined;
  profileName: string;
  /** Extra trusted CA (PEM), added to the bundled roots. */
  caFile?: string | undefined;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Retries for safe requests (`--retries`). */
  retries: number;
  /** `appraisal-cli/<version>`. */
  userAgent: string;
  /** The most a 2xx JSON answer may hold; default DEFAULT_MAX_RESPONSE_BYTES (64 MiB, http/response-body.ts). */
  maxResponseBytes?: number | undefined;
  /** The floor under an upload's or a download's rate (--min-rate); 'off' for none; default DEFAULT_MIN_RATE. */
  minRate?: MinRate | 'off' | undefined;
  io: IO;
  /** Proxy variables and APPRAISAL_RETRY_BASE_MS are read from here, never from process.env. */
  env: Env;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** Sees the headers of every answer (the context's client: a service-desc Link, description/announced.ts). */
  onAnswer?: AnswerObserver | undefined;
  /**
   * Asked by paging before a long read (http/paginate.ts): the context's client passes on the one the
   * process entry handed main() (ProcessDeps); absent in tests and for other clients.
   */
  favourSmallHeap?: (() => void) | undefined;
  /**
   * Open a connection to the service at once, while the command still prepares its first request
   * (the context's client of a command that declares operations, which will send one).
   */
  connectAhead?: boolean | undefined;
}

/**
 * What a caller chooses: where and as whom, and rarely its own signal (a rotation's or a lease's client
 * outlives Ctrl-C), answer observer, timeout or retries (doctor's quick checks). The rest comes from the context.
 */
export type ClientTarget = Pick<ClientSettings, 'baseUrl' | 'profileName' | 'caFile' | 'credential'> &
  Partial<Pick<ClientSettings, 'signal' | 'onAnswer' | 'timeoutMs' | 'retries' | 'favourSmallHeap' | 'connectAhead'>>;

/** The parts of the Context a client is made from (named here, not imported: the Context names this module). */
export interface ClientContext {
  readonly globals: Pick<GlobalOptions, 'timeoutMs' | 'retries' | 'maxResponseBytes' | 'minRate'>;
  readonly io: IO;
  readonly env: Env;
  readonly signal: AbortSignal;
  readonly version: string;
}

/** Sent with every request the CLI makes. */
export function userAgent(version: string): string {
  return `appraisal-cli/${version}`;
}

export function clientSettings(ctx: ClientContext, target: ClientTarget): ClientSettings {
  return {
    baseUrl: target.baseUrl,
    credential: target.credential,
    profileName: target.profileName,
    caFile: target.caFile,
    timeoutMs: target.timeoutMs ?? ctx.globals.timeoutMs,
    retries: target.retries ?? ctx.globals.retries,
    userAgent: userAgent(ctx.version),
    maxResponseBytes: ctx.globals.maxResponseBytes,
    minRate: ctx.globals.minRate,
    io: ctx.io,
    env: ctx.env,
    signal: target.signal ?? ctx.signal,
    onAnswer: target.onAnswer,
    favourSmallHeap: target.favourSmallHeap,
    connectAhead: target.connectAhead,
  };
}
