// Upload a file as multipart/form-data, streamed from disk: memory stays flat whatever its size,
// the content-length is exact, and the sha256 is computed from the very bytes that were sent.
// Never retried: a POST may have taken effect.
import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import type { UploadOptions, UploadResult } from '../api-client.js';
import { ContractError, UsageError } from '../errors.js';
import { parseRecord, unwrapData } from './envelope.js';
import { parseJsonBody, readJsonText } from './response-body.js';
import type { Transport } from './transport.js';

/** Bytes per read: 1 MiB instead of a stream's 64 KiB, so each chunk's trip through the hash and
 * undici is paid 16 times less often (measured in the files bench section). */
const READ_CHUNK = 1 << 20;

async function openFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? String(error));
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new UsageError(`cannot upload ${path}: it is not a regular file`);
  }
  return { handle, size: stat.size };
}

export async function uploadFile(transport: Transport, options: UploadOptions): Promise<UploadResult> {
  const { handle, size } = await openFile(options.filePath);
  try {
    // form-data (and its MIME table) is loaded only by uploads.
    const { frameMultipart } = await import('./multipart.js');
    const frame = frameMultipart({
      fields: options.fields,
      fileField: 'file',
      fileName: options.fileName,
      fileContentType: options.contentType,
      fileSize: size,
    });
    const hash = createHash('sha256');
    let sent = 0;
    // The body undici pulls a chunk at a time. A POST is sent once (never retried), so it is made once.
    async function* body(): AsyncGenerator<Uint8Array> {
      yield frame.head;
      // A read refills the buffer the last chunk was sent from when that chunk was a whole buffer.
      // undici asks an iterable body for its next chunk only once the socket has taken the last:
      // at once when the socket's queue is still below its high-water mark (16 KiB; 64 KiB from
      // Node 22), else after 'drain', when every write so far has completed (writeIterable in
      // undici's client-h1.js and client-h2.js). A whole buffer (1 MiB) is always above the mark,
      // so its bytes are in the kernel (plain TCP) or encrypted (TLS) before the buffer is read into
      // again. A shorter chunk may still wait in the socket's queue: the next read gets a new buffer.
      // Measured (512 MiB over TLS): a new buffer per read, through form-data's stream, cost 2.5 s of
      // CPU (the kernel zeroing and faulting in every page); one buffer pulled so, 1.1 s. Were a
      // chunk ever overwritten before it was sent, the service's sha256 would not match ours, which
      // files upload checks.
      let buffer = Buffer.allocUnsafeSlow(Math.min(READ_CHUNK, size + 1));
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, sent);
        if (bytesRead === 0) break;
        sent += bytesRead;
        if (sent > size) break;
        const chunk = buffer.subarray(0, bytesRead);
        hash.update(chunk);
        options.onProgress?.(sent, size);
        yield chunk;
        if (bytesRead < buffer.length) buffer = Buffer.allocUnsafeSlow(buffer.length);
      }
      if (sent !== size) {
        throw new UsageError(`${options.filePath} changed while it was being uploaded (${size} bytes expected, ${sent} read)`);
      }
      yield frame.tail;
    }
    const record = await transport.perform(
      {
        method: 'POST',
        path: options.path,
        auth: true,
        retry: false,
        signal: options.signal,
        timeout: 'idle',
        body: { open: body, contentType: frame.contentType, contentLength: frame.contentLength },
      },
      async (response, { headers, prepared }) => {
        const text = await readJsonText(response.body, headers, transport.config.maxResponseBytes, prepared);
        const parsed = parseJsonBody(text, response.statusCode, headers, prepared);
        const data = unwrapData(parsed, { status: response.statusCode, method: prepared.method, path: prepared.target });
        return parseRecord(data, `${prepared.method} ${prepared.target}`);
      },
    );
    if (sent !== size) {
      throw new ContractError(`POST ${options.path}: the service answered before the whole file was sent (${sent} of ${size} bytes)`);
    }
    return { record, sha256: hash.digest('hex'), size };
  } finally {
    await handle.close();
  }
}
