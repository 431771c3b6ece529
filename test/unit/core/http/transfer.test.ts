import busboy from 'busboy';
import { createHash, randomBytes } from 'node:crypto';
import { truncateSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DownloadResponse } from '../../../../src/core/api-client.js';
import {
  AuthenticationError,
  ContractError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  ServiceUnavailableError,
  UsageError,
} from '../../../../src/core/errors.js';
import { frameMultipart } from '../../../../src/core/http/multipart.js';
import { KEY, closedAfterEach, json, makeClient, rejection } from './helpers.js';
import { tempDir } from '../../../helpers/temp.js';

const { serve, client } = closedAfterEach();

let dir: string;
let bigFile: string;
let bigBytes: Buffer;
beforeAll(() => {
  dir = tempDir('appraisal-upload-');
  bigBytes = randomBytes(6 * 1024 * 1024 + 123);
  bigFile = join(dir, 'report.pdf');
  writeFileSync(bigFile, bigBytes);
});

const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

interface Parsed {
  contentLength: number;
  received: number;
  fields: Record<string, string>;
  file?: { field: string; filename: string; mimeType: string; size: number; sha256: string };
}

/** A files endpoint that parses the multipart body with busboy and hashes the file part. */
function filesEndpoint(parsed: Parsed[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const result: Parsed = { contentLength: Number(req.headers['content-length']), received: 0, fields: {} };
    req.on('data', (chunk: Buffer) => (result.received += chunk.length));
    const parser = busboy({ headers: req.headers, defParamCharset: 'utf8' });
    parser.on('field', (name, value) => (result.fields[name] = value));
    parser.on('file', (field, stream, info) => {
      const hash = createHash('sha256');
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        hash.update(chunk);
      });
      stream.on('end', () => {
        result.file = { field, filename: info.filename ?? '', mimeType: info.mimeType, size, sha256: hash.digest('hex') };
      });
    });
    parser.on('close', () => {
      parsed.push(result);
      json(res, 201, {
        success: true,
        data: { id: 'file-1', name: result.file?.filename, size: result.file?.size, sha256: result.file?.sha256 },
      });
    });
    req.pipe(parser);
  };
}

describe('multipart framing', () => {
  it('frames fields and the file part around the file bytes, with an exact length', () => {
    const frame = frameMultipart({
      fields: { propertyId: 'p-1' },
      fileField: 'file',
      fileName: 'a "b".txt',
      fileContentType: 'text/plain',
      fileSize: 5,
      boundary: 'XyZ',
    });
    const whole = Buffer.concat([frame.head, Buffer.from('hello'), frame.tail]).toString();
    expect(whole).toBe(
      '--XyZ\r\nContent-Disposition: form-data; name="propertyId"\r\n\r\np-1\r\n' +
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a %22b%22.txt"\r\nContent-Type: text/plain\r\n\r\n' +
        'hello\r\n--XyZ--\r\n',
    );
    expect(frame.contentLength).toBe(Buffer.byteLength(whole));
    expect(frame.contentType).toBe('multipart/form-data; boundary=XyZ');
  });

  it('refuses a content type of more than one line', () => {
    expect(() =>
      frameMultipart({ fileField: 'file', fileName: 'a', fileContentType: 'text/plain\r\nX-Evil: 1', fileSize: 1, boundary: 'XyZ' }),
    ).toThrow(UsageError);
  });
});

describe('upload', () => {
  it('streams a multi-MB file with an exact content-length and the right sha256', async () => {
    const parsed: Parsed[] = [];
    const server = await serve(filesEndpoint(parsed), { raw: true });
    const { client: api } = client(server.url);
    const progress: Array<[number, number]> = [];
    const result = await api.upload({
      path: '/api/files',
      filePath: bigFile,
      fileName: 'rapport é.pdf',
      contentType: 'application/pdf',
      fields: { propertyId: 'prop-1', assignmentId: 'asg-2' },
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    expect(result.sha256).toBe(sha(bigBytes));
    expect(result.size).toBe(bigBytes.length);
    expect(result.record).toMatchObject({ id: 'file-1', sha256: sha(bigBytes), size: bigBytes.length });
    const [seen] = parsed;
    expect(seen?.received).toBe(seen?.contentLength);
    expect(seen?.file).toEqual({
      field: 'file',
      filename: 'rapport é.pdf',
      mimeType: 'application/pdf',
      size: bigBytes.length,
      sha256: sha(bigBytes),
    });
    expect(seen?.fields).toEqual({ propertyId: 'prop-1', assignmentId: 'asg-2' });
    expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(server.requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(progress.at(-1)).toEqual([bigBytes.length, bigBytes.length]);
    // Progress moves with every read of the file (1 MiB each), not once at the end.
    expect(progress.length).toBeGreaterThanOrEqual(6);
  });

  it.each([
    ['without a rate floor', {}],
    ['held to a rate floor', { minRate: { bytes: 1024, windowMs: 10_000 } }],
  ])('sends every byte as read to a service that reads slowly (%s)', async (_name, overrides) => {
    // The service takes 256 KiB at a time with a pause after each, so the client's socket fills and
    // its writes wait in the queue: a read buffer refilled before its bytes were sent would change
    // what the service receives.
    const parsed: Parsed[] = [];
    const endpoint = filesEndpoint(parsed);
    const server = await serve(
      (req, res) => {
        let taken = 0;
        req.on('data', (chunk: Buffer) => {
          taken += chunk.length;
          if (taken < 256 * 1024) return;
          taken = 0;
          req.pause();
          setTimeout(() => req.resume(), 2);
        });
        endpoint(req, res);
      },
      { raw: true },
    );
    const { client: api } = client(server.url, overrides);
    const result = await api.upload({ path: '/api/files', filePath: bigFile, fileName: 'r.pdf', contentType: 'application/pdf' });
    expect(result.sha256).toBe(sha(bigBytes));
    expect(parsed[0]?.received).toBe(parsed[0]?.contentLength);
    expect(parsed[0]?.file).toMatchObject({ size: bigBytes.length, sha256: sha(bigBytes) });
  });

  it('uploads an empty file', async () => {
    const parsed: Parsed[] = [];
    const server = await serve(filesEndpoint(parsed), { raw: true });
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const { client: api } = client(server.url);
    const result = await api.upload({ path: '/api/files', filePath: empty, fileName: 'empty.txt', contentType: 'text/plain' });
    expect(result.sha256).toBe(sha(Buffer.alloc(0)));
    expect(parsed[0]?.file?.size).toBe(0);
  });

  it('is never retried', async () => {
    const server = await serve((_req, res) => json(res, 503, { error: { message: 'busy' } }));
    const { client: api } = client(server.url);
    const error = await rejection(api.upload({ path: '/api/files', filePath: bigFile, fileName: 'r.pdf', contentType: 'application/pdf' }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 401 the service sends before reading the body', async () => {
    const server = await serve(
      (_req, res) => {
        json(res, 401, { error: { message: 'bad key' } }, { connection: 'close' });
      },
      { raw: true },
    );
    const { client: api } = client(server.url);
    const error = await rejection(api.upload({ path: '/api/files', filePath: bigFile, fileName: 'r.pdf', contentType: 'application/pdf' }));
    // Depending on timing the service's answer or the closed socket arrives first.
    expect([AuthenticationError, NetworkError].some((cls) => error instanceof cls)).toBe(true);
  });

  it('refuses a missing file or a directory before any request', async () => {
    const server = await serve((_req, res) => json(res, 201, {}));
    const { client: api } = client(server.url);
    const missing = await rejection(api.upload({ path: '/api/files', filePath: join(dir, 'nope.pdf'), fileName: 'n', contentType: 'x/y' }));
    expect(missing).toBeInstanceOf(UsageError);
    expect(missing.message).toContain('no such file');
    expect(await rejection(api.upload({ path: '/api/files', filePath: dir, fileName: 'n', contentType: 'x/y' }))).toBeInstanceOf(
      UsageError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('fails with a usage error when the file changes while it is sent', async () => {
    const server = await serve(
      (req, res) => {
        req.resume();
        req.on('end', () => json(res, 201, { success: true, data: { id: 'x' } }));
      },
      { raw: true },
    );
    const shrinking = join(dir, 'shrinking.bin');
    writeFileSync(shrinking, Buffer.alloc(8 * 1024 * 1024, 1));
    const { client: api } = client(server.url);
    let truncated = false;
    const error = await rejection(
      api.upload({
        path: '/api/files',
        filePath: shrinking,
        fileName: 's.bin',
        contentType: 'application/octet-stream',
        onProgress: (sent) => {
          if (!truncated && sent > 1_000_000) {
            truncated = true;
            truncateSync(shrinking, 2_000_000);
          }
        },
      }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('changed while it was being uploaded');
  });

  it('fails with ContractError when the answer is not a record', async () => {
    const server = await serve((_req, res) => json(res, 201, { success: true, data: { name: 'no id' } }));
    const { client: api } = client(server.url);
    const error = await rejection(api.upload({ path: '/api/files', filePath: bigFile, fileName: 'r.pdf', contentType: 'application/pdf' }));
    expect(error).toBeInstanceOf(ContractError);
  });
});

async function collect(response: DownloadResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('download', () => {
  it('streams the body with its length and type', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(bigBytes.length) });
      res.end(bigBytes);
    });
    const { client: api } = client(server.url);
    const response = await api.download('/api/files/1/content');
    expect(response.contentLength).toBe(bigBytes.length);
    expect(response.contentType).toBe('application/pdf');
    expect(sha(await collect(response))).toBe(sha(bigBytes));
    expect(server.requests[0]?.headers.accept).toBe('*/*');
    expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
  });

  it('retries before the body starts', async () => {
    let calls = 0;
    const server = await serve((req, res) => {
      calls++;
      if (calls === 1) json(res, 503, {});
      else if (calls === 2) req.socket.destroy();
      else {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
        res.end('hello');
      }
    });
    const { client: api } = client(server.url);
    const response = await api.download('/api/files/1/content');
    expect((await collect(response)).toString()).toBe('hello');
    expect(calls).toBe(3);
  });

  it('maps 404 to NotFoundError', async () => {
    const server = await serve((_req, res) => json(res, 404, { error: { message: 'no such file' } }));
    const { client: api } = client(server.url);
    expect(await rejection(api.download('/api/files/x/content'))).toBeInstanceOf(NotFoundError);
  });

  it('gives the consumer a NetworkError when the body is cut short', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
      // Cut once the 300 bytes are handed to the socket.
      res.write(Buffer.alloc(300), () => res.socket?.destroy());
    });
    const { client: api } = client(server.url);
    const response = await api.download('/api/files/1/content');
    const error = await rejection(collect(response));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('got 300 of 1000 bytes');
  });

  /** A download whose first 100 of 1,000 bytes arrive, the rest never; `controller` aborts it. */
  async function stalledDownload(controller: AbortController): Promise<DownloadResponse> {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
      res.write(Buffer.alloc(100));
    });
    return client(server.url).client.download('/api/files/1/content', controller.signal);
  }

  it('gives InterruptedError when aborted while streaming', async () => {
    const controller = new AbortController();
    const response = await stalledDownload(controller);
    // Interrupted mid-stream: once the first bytes have arrived, with 900 still to come.
    const reading = (async () => {
      for await (const _chunk of response.body) controller.abort();
    })();
    expect(await rejection(reading)).toBeInstanceOf(InterruptedError);
  });

  it('keeps an abort that comes before the body is read for its reader (no unhandled error event)', async () => {
    const controller = new AbortController();
    const response = await stalledDownload(controller);
    // Ctrl-C while the caller is still opening its temp file: nobody listens to the body yet. A
    // plain listener for 'close' (events.once would add an 'error' listener and hide the crash).
    const closed = new Promise<void>((resolve) => (response.body as unknown as Readable).on('close', () => resolve()));
    controller.abort();
    await closed;
    expect(await rejection(collect(response))).toBeInstanceOf(InterruptedError);
  });

  it('closes promptly even when a download body is left unread', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
      res.write(Buffer.alloc(10));
    });
    const made = makeClient(server.url);
    await made.client.download('/api/files/1/content');
    const started = Date.now();
    await made.client.close();
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('lets the caller stop early by destroying the body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bigBytes.length) });
      res.end(bigBytes);
    });
    const { client: api } = client(server.url);
    const response = await api.download('/api/files/1/content');
    for await (const _chunk of response.body) break;
    // The connection pool still works afterwards.
    const again = await api.download('/api/files/1/content');
    expect((await collect(again)).length).toBe(bigBytes.length);
  });
});
