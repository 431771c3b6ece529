// The contract between commands and the HTTP core. The implementation lives in src/core/http/ and is
// loaded lazily (it pulls in undici and zod); this file holds only types, so importing it is free.

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

export interface CredentialInfo {
  /** Shown and recorded instead of the secret. */
  prefix: string;
  source: CredentialSource;
  kind: 'api-key' | 'bearer';
}

export type CredentialSource = 'api-key-file' | 'env' | 'keychain' | 'insecure-file';

export interface ApiClient {
  readonly baseUrl: string;
  readonly credential: CredentialInfo | undefined;
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
  /** A client with the same settings but another credential (key rotation verifies with it). */
  withSecret(secret: string, source: CredentialSource): ApiClient;
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
