// Ready-made answers for the hostile server, and the payloads and checks tests share. Each builder
// returns a Route; combine them freely. New kinds of misbehaviour belong here.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { LoggedRequest, Route, StreamRoute } from './server.js';

/** Terminal control sequences a hostile service may put in any text it sends. */
export const CONTROL = {
  /** OSC 52: writes "pwned" to the clipboard of terminals that allow it. */
  osc52: '\x1b]52;c;cHduZWQ=\x07',
  /** Clears the screen and homes the cursor. */
  clear: '\x1b[2J\x1b[H',
  /** Sets the window title (OSC 0), terminated by ST. */
  title: '\x1b]0;owned\x1b\\',
  bell: '\x07',
  /** Carriage return without a line feed: overwrites what the line said so far. */
  bareCr: 'fake\rREAL',
  /** The 8-bit CSI (C1 control). */
  c1Csi: '\u009b31m',
} as const;

/** Every payload of CONTROL in one string. */
export const ALL_CONTROL = Object.values(CONTROL).join(' ');

/** Raw control bytes that must never reach a terminal (everything below 0x20 but \n and \t, DEL, C1). */
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A zero-width space: invisible, but splits a secret for naive redaction. */
export const ZERO_WIDTH = '\u200b';

export function json(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

export function text(status: number, body: string, headers: OutgoingHttpHeaders = {}): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

/** The documented error shape `{error: {code, message, requestId, details}}`. */
export function serviceError(
  status: number,
  error: { code?: string; message?: string; requestId?: string; details?: Record<string, unknown> },
  headers: OutgoingHttpHeaders = {},
): Route {
  return json(status, { error }, headers);
}

/** `{success: true, data}` around one record. */
export function record(data: Record<string, unknown>, status = 200, headers: OutgoingHttpHeaders = {}): Route {
  return json(status, { success: true, data }, headers);
}

/** A collection page; pagination defaults to one page holding exactly `items`. */
export function page(
  items: Array<Record<string, unknown>>,
  pagination: Partial<{ page: number; limit: number; total: number; pages: number }> = {},
): Route {
  return json(200, { items, pagination: { page: 1, limit: Math.max(items.length, 1), total: items.length, pages: 1, ...pagination } });
}

/** The credential the request carried (x-api-key, else the Authorization value), or ''. */
export function credentialOf(req: LoggedRequest | { headers: IncomingHttpHeaders }): string {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string') return key;
  const auth = req.headers.authorization;
  return typeof auth === 'string' ? auth.replace(/^Bearer\s+/i, '') : '';
}

/** Ways a service (or a proxy, or a log line) can mangle a secret it echoes back. */
export const ENCODINGS: Readonly<Record<string, (secret: string) => string>> = {
  plain: (s) => s,
  urlEncoded: (s) => encodeURIComponent(s).replace(/_/g, '%5F'),
  /** Every character percent-encoded. */
  fullyPercentEncoded: (s) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  spaced: (s) => [...s].join(' '),
  splitByNewline: (s) => `${s.slice(0, 10)}\n${s.slice(10)}`,
  zeroWidth: (s) => [...s].join(ZERO_WIDTH),
  base64: (s) => Buffer.from(s, 'utf8').toString('base64'),
};

/** Answers `status` with an error message quoting the request's credential through `encode`. */
export function echoCredential(status: number, encode: (secret: string) => string, where: 'message' | 'requestId' = 'message'): Route {
  return (req, res) => {
    const echoed = encode(credentialOf(req));
    const error =
      where === 'message'
        ? { code: 'BAD_KEY', message: `key ${echoed} is not valid here` }
        : { code: 'BAD_KEY', message: 'no', requestId: echoed };
    return json(status, { error })(req, res);
  };
}

/**
 * A 200 JSON answer that never ends: `head`, then `chunk` repeated until the client goes away.
 * With `announce`, a content-length is sent (a lie when larger than what follows, or simply huge).
 * Writes respect backpressure, so the server itself stays small.
 */
export function endlessJson(head: string, chunk: string, announce?: number): Route {
  return (_req, res) => {
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/json' };
    if (announce !== undefined) headers['content-length'] = String(announce);
    res.writeHead(200, headers);
    const block = Buffer.from(chunk.repeat(Math.max(1, Math.floor(65536 / chunk.length))));
    res.write(head);
    const pump = (): void => {
      while (!res.destroyed && res.write(block));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('error', () => {});
    pump();
  };
}

/**
 * Collection pages computed per requested page number: `pagination(page)` gives what page N claims,
 * `items(page)` what it holds (default: none). For pagination that lies (pages: 1e9, limit: 0…).
 */
export function pagesBy(
  pagination: (page: number) => { limit: number; total: number; pages: number },
  items: (page: number) => Array<Record<string, unknown>> = () => [],
): Route {
  return (req, res) => {
    const page = Number(new URL(req.path, 'http://x').searchParams.get('page') ?? '1');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: items(page), pagination: { page, ...pagination(page) } }));
  };
}

/**
 * `body` with its content-length, `chunkBytes` at a time every `everyMs` (a trickle at 1 byte per
 * 100 ms, or a slow but steady link); stops when the client goes away.
 */
export function paced(body: Buffer, chunkBytes: number, everyMs: number, status = 200, contentType = 'application/octet-stream'): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': String(body.length) });
    res.on('error', () => {});
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(body.subarray(at, at + chunkBytes));
      at += chunkBytes;
      if (at >= body.length) {
        clearInterval(timer);
        res.end();
      }
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/**
 * Reads the request body `chunkBytes` at a time every `everyMs` (1 byte per 100 ms: a trickle, the
 * rest held up in the socket buffers), then answers what `answer` makes of the whole body.
 */
export function readSlowly(chunkBytes: number, everyMs: number, answer: (body: Buffer) => Route): StreamRoute {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('error', () => {});
    res.on('error', () => {});
    const timer = setInterval(() => {
      const chunk = req.read(chunkBytes) as Buffer | null;
      if (chunk !== null) chunks.push(chunk);
    }, everyMs);
    res.on('close', () => clearInterval(timer));
    req.on('end', () => {
      clearInterval(timer);
      const body = Buffer.concat(chunks);
      void answer(body)({ method: req.method ?? 'POST', path: req.url ?? '/', headers: req.headers, body }, res);
    });
  };
}
