// multipart/form-data framing (RFC 7578) with `form-data`: the text fields, then the file part
// streamed with its `knownLength`, so the exact content-length is known before the first byte is
// sent (names and filenames escaped the WHATWG way: `"`, CR and LF percent-encoded).
import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import FormData from 'form-data';
import { UsageError } from '../errors.js';

export interface MultipartBody {
  /** `multipart/form-data; boundary=…` */
  contentType: string;
  /** The whole body: fields, the file part, the closing boundary. */
  stream: Readable;
  /** Its exact length in bytes (the file counted by its `fileSize`). */
  contentLength: number;
}

export interface MultipartPlan {
  fields?: Readonly<Record<string, string>> | undefined;
  /** Name of the file part (`file`). */
  fileField: string;
  fileName: string;
  fileContentType: string;
  /** The file's bytes; exactly `fileSize` of them, or the stream fails. */
  file: Readable;
  fileSize: number;
  /** Fixed in tests; random otherwise. */
  boundary?: string | undefined;
}

export function frameMultipart(plan: MultipartPlan): MultipartBody {
  if (/[\r\n]/.test(plan.fileContentType)) throw new UsageError('the content type must be a single line');
  const form = new FormData();
  form.setBoundary(plan.boundary ?? `----appraisal-cli-${randomBytes(16).toString('hex')}`);
  for (const [name, value] of Object.entries(plan.fields ?? {})) form.append(name, value);
  const part = { filename: plan.fileName, contentType: plan.fileContentType, knownLength: plan.fileSize };
  // form-data reads a knownLength of 0 as "unknown" and then cannot give a length: an empty file
  // is sent as an empty buffer.
  if (plan.fileSize === 0) plan.file.destroy();
  form.append(plan.fileField, plan.fileSize === 0 ? Buffer.alloc(0) : plan.file, part);
  // Measured before piping: piping starts consuming the parts getLengthSync counts.
  const contentLength = form.getLengthSync();
  const contentType = form.getHeaders()['content-type'] as string;
  // form-data is an old-style stream: undici wants a Readable, and pipe() does not pass errors on
  // (a file that changed while it was sent must fail the request, not end it short).
  const stream = new PassThrough();
  form.on('error', (error: Error) => stream.destroy(error));
  // A failure while undici is still connecting (nobody reads the body yet) must not be an unhandled
  // 'error' event: the stream keeps the error, and undici fails the request with it when it reads.
  stream.on('error', () => {});
  stream.on('close', () => {
    if (!stream.readableEnded) plan.file.destroy();
  });
  form.pipe(stream);
  return { contentType, stream, contentLength };
}
