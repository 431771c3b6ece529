// Receives a multipart/form-data upload with busboy, streaming the part named `file` to a temp file
// while counting its bytes and hashing them: memory stays flat for any size. Other text parts are
// returned as fields; further file parts are drained and ignored.
import busboy from 'busboy';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MockHttpError } from './http-error.js';

export interface ReceivedUpload {
  path: string;
  size: number;
  sha256: string;
  fileName: string;
  contentType: string;
  fields: Record<string, string>;
}

function meter(onDone: (size: number, sha256: string) => void): Transform {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      onDone(size, hash.digest('hex'));
      callback();
    },
  });
}

export function receiveUpload(req: IncomingMessage, dir: string, maxBytes: number): Promise<ReceivedUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    return Promise.reject(
      new MockHttpError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `expected multipart/form-data with a part named "file", got ${type || 'no content-type'}`,
      ),
    );
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 10, fileSize: maxBytes, fields: 50, fieldSize: 64 * 1024, parts: 100 } });
  } catch (error) {
    return Promise.reject(new MockHttpError(400, 'BAD_REQUEST', `malformed multipart request: ${(error as Error).message}`));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let written: Promise<void> | undefined;
    let upload: Omit<ReceivedUpload, 'fields' | 'size' | 'sha256'> | undefined;
    let measured: { size: number; sha256: string } | undefined;
    let tooLarge = false;
    let failed = false;
    let file: WriteStream | undefined;
    let source: Readable | undefined;
    /** The temp file gone for good: a write stream still opening would create it after an early removal. */
    const removeTempFile = async () => {
      if (file && !file.closed) {
        source?.destroy();
        file.destroy();
        await new Promise<void>((closed) => file!.once('close', () => closed()));
      }
      if (upload) await rm(upload.path, { force: true });
    };
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      // Answered only after the clean-up: whoever reads the 4xx finds no temp file left behind.
      void removeTempFile().finally(() => reject(error));
    };

    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
      if (name !== 'file' || upload) {
        stream.resume();
        return;
      }
      upload = {
        path: join(dir, randomUUID()),
        fileName: info.filename || 'upload',
        contentType: info.mimeType || 'application/octet-stream',
      };
      stream.once('limit', () => {
        tooLarge = true;
      });
      source = stream;
      file = createWriteStream(upload.path, { mode: 0o600 });
      written = pipeline(
        stream,
        meter((size, sha256) => (measured = { size, sha256 })),
        file,
      );
      written.catch(fail);
    });
    parser.on('field', (name: string, value: string) => {
      fields[name] = value;
    });
    parser.once('error', (error: Error) => fail(new MockHttpError(400, 'BAD_REQUEST', `malformed multipart request: ${error.message}`)));
    parser.once('close', () => {
      void (async () => {
        try {
          await written;
        } catch {
          return; // already failed
        }
        if (failed) return;
        if (!upload || !measured)
          return fail(
            new MockHttpError(422, 'VALIDATION_FAILED', 'the multipart body has no part named "file"', {
              details: [{ field: 'file', message: 'is required' }],
            }),
          );
        if (tooLarge) return fail(new MockHttpError(413, 'PAYLOAD_TOO_LARGE', `the file is larger than ${maxBytes} bytes`));
        resolve({ ...upload, ...measured, fields });
      })();
    });
    req.once('aborted', () => fail(new MockHttpError(400, 'BAD_REQUEST', 'the upload was aborted')));
    req.pipe(parser);
  });
}
