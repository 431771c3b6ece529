// The last requests the mock answered, for GET /__mock/requests and the --log lines. Only the key
// PREFIX is recorded; query values of credential-looking parameters are replaced.

export interface RequestLogEntry {
  at: string;
  requestId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Null while the request is open (e.g. a hang), 0 when the connection was reset. */
  status: number | null;
  keyPrefix: string | null;
  fault: string | null;
  durationMs: number | null;
}

const SECRET_PARAMETER = /key|token|secret|password|auth/i;

export function loggableQuery(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of query) out[name] = SECRET_PARAMETER.test(name) ? '[redacted]' : value;
  return out;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(private readonly capacity = 1000) {}

  add(entry: RequestLogEntry): RequestLogEntry {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }

  /** The newest `limit` entries, oldest first. */
  recent(limit = this.capacity): RequestLogEntry[] {
    return this.entries.slice(Math.max(0, this.entries.length - limit));
  }

  clear(): void {
    this.entries = [];
  }
}

export function formatLogLine(entry: RequestLogEntry): string {
  const query = new URLSearchParams(entry.query).toString();
  const status = entry.status === null ? '---' : entry.status === 0 ? 'RST' : String(entry.status);
  const parts = [
    entry.at,
    entry.method,
    `${entry.path}${query ? `?${query}` : ''}`,
    status,
    `${entry.durationMs ?? '-'}ms`,
    entry.keyPrefix ?? '-',
    entry.requestId,
  ];
  if (entry.fault) parts.push(`fault=${entry.fault}`);
  return parts.join(' ');
}
