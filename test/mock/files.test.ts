// Files: multipart upload streamed to the temp dir with size and sha256, download with exact
// content-length, attach, delete; bad uploads answered, never a crash; a 512 MiB upload with flat memory.
import { createHash, pbkdf2, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/index.js';
import { call, UNKNOWN_ID, useMock } from '../helpers/mock-admin.js';

const mock = useMock({ records: 10, seed: 4 });

const BOUNDARY = 'mock-test-boundary-7f3a';

function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: ${disposition}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`),
    );
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function upload(body: Buffer, headers: Record<string, string> = {}) {
  return call(mock.server, 'POST', '/api/files', {
    rawBody: body,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('files', () => {
  it('uploads a small file: 201 {success, data} with size and sha256, and downloads the same bytes', async () => {
    const content = Buffer.from('hello appraisal\n');
    const reply = await upload(multipart([{ name: 'file', value: content, filename: 'notes.txt', type: 'text/plain' }]));
    expect(reply.status, reply.text).toBe(201);
    const body = reply.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      name: 'notes.txt',
      contentType: 'text/plain',
      size: content.length,
      sha256: sha256(content),
      attachments: [],
    });
    const download = await call(mock.server, 'GET', `/api/files/${body.data.id}/content`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('text/plain');
    expect(download.headers['content-length']).toBe(String(content.length));
    expect(download.headers['content-disposition']).toContain('notes.txt');
    expect(download.body.equals(content)).toBe(true);
    expect((await call(mock.server, 'GET', `/api/files/${body.data.id}`)).json()).toEqual(body.data);
  });

  it('uploads a few MB of binary with propertyId and assignmentId fields, attached at once', async () => {
    const content = randomBytes(5 * 1024 * 1024 + 17);
    const property = (await call(mock.server, 'GET', '/api/properties?limit=1')).json().items[0];
    const assignment = (await call(mock.server, 'GET', '/api/assignments?limit=1')).json().items[0];
    const reply = await upload(
      multipart([
        { name: 'propertyId', value: property.id },
        { name: 'file', value: content, filename: 'photos.bin', type: 'application/octet-stream' },
        { name: 'assignmentId', value: assignment.id },
      ]),
    );
    expect(reply.status, reply.text).toBe(201);
    const file = reply.json().data;
    expect(file).toMatchObject({ size: content.length, sha256: sha256(content) });
    expect(file.attachments).toEqual([
      { targetType: 'property', targetId: property.id },
      { targetType: 'assignment', targetId: assignment.id },
    ]);
    const download = await call(mock.server, 'GET', `/api/files/${file.id}/content`);
    expect(download.headers['content-length']).toBe(String(content.length));
    expect(sha256(download.body)).toBe(file.sha256);
    const listed = (await call(mock.server, 'GET', `/api/files?propertyId=${property.id}&limit=100`)).json();
    expect(listed.items.map((f: { id: string }) => f.id)).toContain(file.id);
  });

  it('downloads seeded files with their recorded size and sha256', async () => {
    const seeded = (await call(mock.server, 'GET', '/api/files?limit=3')).json().items;
    for (const file of seeded) {
      const download = await call(mock.server, 'GET', `/api/files/${file.id}/content`);
      expect(download.status).toBe(200);
      expect(download.body.length).toBe(file.size);
      expect(sha256(download.body)).toBe(file.sha256);
      expect(download.headers['content-type']).toBe(file.contentType);
    }
  });

  it('attaches a file to a property or an assignment (idempotent) and refuses unknown targets', async () => {
    const file = (await call(mock.server, 'GET', '/api/files?limit=1')).json().items[0];
    const property = (await call(mock.server, 'GET', '/api/properties?page=2&limit=1')).json().items[0];
    const attach = () =>
      call(mock.server, 'POST', `/api/files/${file.id}/attachments`, { body: { targetType: 'property', targetId: property.id } });
    const first = await attach();
    expect(first.status).toBe(200);
    expect(first.json().success).toBe(true);
    expect(first.json().data.attachments).toContainEqual({ targetType: 'property', targetId: property.id });
    const again = (await attach()).json().data;
    expect(again.attachments.filter((a: { targetId: string }) => a.targetId === property.id)).toHaveLength(1);
    const unknown = await call(mock.server, 'POST', `/api/files/${file.id}/attachments`, {
      body: { targetType: 'assignment', targetId: UNKNOWN_ID },
    });
    expect(unknown.status).toBe(422);
    const badType = await call(mock.server, 'POST', `/api/files/${file.id}/attachments`, {
      body: { targetType: 'client', targetId: property.id },
    });
    expect(badType.status).toBe(422);
    expect(
      (await call(mock.server, 'POST', `/api/files/${UNKNOWN_ID}/attachments`, { body: { targetType: 'property', targetId: property.id } }))
        .status,
    ).toBe(404);
  });

  it('deletes a file and its bytes', async () => {
    const reply = await upload(multipart([{ name: 'file', value: 'bye', filename: 'bye.txt' }]));
    const file = reply.json().data;
    const uploads = join(mock.server.tempDir, 'uploads');
    expect(readdirSync(uploads).length).toBeGreaterThan(0);
    const before = readdirSync(uploads).length;
    expect((await call(mock.server, 'DELETE', `/api/files/${file.id}`)).status).toBe(204);
    expect(readdirSync(uploads).length).toBe(before - 1);
    expect((await call(mock.server, 'GET', `/api/files/${file.id}/content`)).status).toBe(404);
  });

  it('answers bad uploads with 4xx and leaves no temp file behind', async () => {
    const uploads = join(mock.server.tempDir, 'uploads');
    const before = readdirSync(uploads).length;
    const noFile = await upload(multipart([{ name: 'propertyId', value: UNKNOWN_ID }]));
    expect(noFile.status).toBe(422);
    const unknownTarget = await upload(
      multipart([
        { name: 'file', value: 'x', filename: 'x.txt' },
        { name: 'propertyId', value: UNKNOWN_ID },
      ]),
    );
    expect(unknownTarget.status).toBe(422);
    expect(unknownTarget.json().error.message).toContain(UNKNOWN_ID);
    const notMultipart = await call(mock.server, 'POST', '/api/files', { body: { name: 'x' } });
    expect(notMultipart.status).toBe(415);
    const broken = await upload(Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a"\r\n\r\nabc`));
    expect(broken.status).toBe(400);
    expect(readdirSync(uploads).length).toBe(before);
    expect((await call(mock.server, 'GET', '/api/files?limit=1')).status).toBe(200);
  });

  it('answers a broken upload only once its temp file is gone, even while the file is still being opened', async () => {
    const uploads = join(mock.server.tempDir, 'uploads');
    const before = readdirSync(uploads).sort();
    // Every thread of libuv's pool busy: the temp file's open() waits behind them, so the body's
    // early end is seen before the file exists. Answering then, before the clean-up, left the file
    // to be created after the answer (and never removed).
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const busy = Array.from({ length: threads }, () => promisify(pbkdf2)('busy', 'salt', 300_000, 64, 'sha512'));
    const broken = await upload(Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a"\r\n\r\nabc`));
    expect(broken.status).toBe(400);
    expect(readdirSync(uploads).sort()).toEqual(before);
    await Promise.all(busy);
    // Whatever the pool had queued (the open included) has run by now.
    expect((await readdir(uploads)).sort()).toEqual(before);
  });

  it('streams a 512 MiB upload to disk with flat memory, and removes the temp dir on close', async () => {
    const server = await startMockServer({ port: 0, records: 1, http: true });
    const size = 512 * 1024 * 1024;
    const chunk = randomBytes(1024 * 1024);
    const hash = createHash('sha256');
    const head = Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    let peakRss = 0;
    const baseline = process.memoryUsage().rss;
    async function* body() {
      yield head;
      for (let sent = 0; sent < size; sent += chunk.length) {
        hash.update(chunk);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        yield chunk;
      }
      yield tail;
    }
    try {
      const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(
          `${server.baseUrl}/api/files`,
          {
            method: 'POST',
            headers: {
              'x-api-key': server.adminKey,
              'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
              'content-length': String(head.length + size + tail.length),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        Readable.from(body()).pipe(req);
      });
      expect(reply.status, reply.text).toBe(201);
      const file = JSON.parse(reply.text).data;
      expect(file.size).toBe(size);
      expect(file.sha256).toBe(hash.digest('hex'));
      // Client and server share this process: neither may hold the upload in memory.
      expect(peakRss - baseline).toBeLessThan(200 * 1024 * 1024);
    } finally {
      await server.close();
    }
    expect(existsSync(server.tempDir)).toBe(false);
  }, 120_000);
});
