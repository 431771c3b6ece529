// Writes a MockResponse to the socket: JSON serialised once with an exact content-length, bytes,
// or a file streamed from disk. The transport faults live here too: `truncate` (content-length
// promises more than is sent, then the connection ends) and `reset-mid-body` (part of the body,
// then the connection is destroyed).
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { MockResponse } from './mock-response.js';

export type TransportFault = 'truncate' | 'reset-mid-body';

/** Destroy a connection; a plain TCP connection is reset (RST), TLS cannot be, so it is destroyed. */
export function killConnection(socket: Socket | null | undefined): void {
  if (!socket || socket.destroyed) return;
  if (!(socket instanceof TLSSocket) && typeof socket.resetAndDestroy === 'function') {
    try {
      socket.resetAndDestroy();
      return;
    } catch {
      // fall through
    }
  }
  socket.destroy();
}

function cutShort(res: ServerResponse, fault: TransportFault): void {
  const socket = res.socket;
  if (fault === 'truncate') socket?.end();
  else setTimeout(() => killConnection(socket), 20);
}

function sendBuffer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  payload: Buffer,
  fault: TransportFault | undefined,
): void {
  if (!fault && status === 204) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if (!fault) {
    res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
    res.end(payload);
    return;
  }
  // Promise the whole body (at least 64 bytes), send half of it.
  const claimed = Math.max(payload.length, 64);
  res.writeHead(status === 204 ? 200 : status, { ...headers, 'content-length': String(claimed) });
  res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => cutShort(res, fault));
}

function sendFile(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  path: string,
  size: number,
  fault: TransportFault | undefined,
): void {
  res.writeHead(status, { ...headers, 'content-length': String(fault ? Math.max(size, 64) : size) });
  const end = fault ? Math.floor(size / 2) - 1 : size - 1;
  if (end < 0) {
    if (fault) cutShort(res, fault);
    else res.end();
    return;
  }
  const stream = createReadStream(path, { start: 0, end });
  stream.once('error', () => killConnection(res.socket));
  res.once('close', () => stream.destroy());
  if (fault) stream.once('end', () => res.write('', () => cutShort(res, fault)));
  stream.pipe(res, { end: !fault });
}

export function writeResponse(res: ServerResponse, response: MockResponse, fault?: TransportFault): void {
  const headers: Record<string, string> = { ...response.headers };
  const body = response.body;
  switch (body.kind) {
    case 'json':
      headers['content-type'] = 'application/json; charset=utf-8';
      return sendBuffer(res, response.status, headers, Buffer.from(JSON.stringify(body.value), 'utf8'), fault);
    case 'bytes':
      headers['content-type'] = body.contentType;
      return sendBuffer(res, response.status, headers, body.data, fault);
    case 'file':
      headers['content-type'] = body.contentType;
      return sendFile(res, response.status, headers, body.path, body.size, fault);
    case 'empty':
      return sendBuffer(res, response.status, headers, Buffer.alloc(0), fault);
  }
}
