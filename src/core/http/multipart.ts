// multipart/form-data framing (RFC 7578) with `form-data`: the text fields and the file part's
// header before the file's bytes, the closing boundary after them, and the exact content-length
// (names and filenames escaped the WHATWG way: `"`, CR and LF percent-encoded). The file itself is
// not framed here: the caller sends its bytes between `head` and `tail` (upload.ts reads them into
// one reused buffer, which a stream through form-data could not do).
import { randomBytes } from 'node:crypto';
import FormData from 'form-data';
import { UsageError } from '../errors.js';

export interface MultipartFrame {
  /** `multipart/form-data; boundary=…` */
  contentType: string;
  /** The fields, then the file part's header. */
  head: Buffer;
  /** After the file's bytes: the end of its part and the closing boundary. */
  tail: Buffer;
  /** The whole body's length in bytes, the file counted by its `fileSize`. */
  contentLength: number;
}

export interface MultipartPlan {
  fields?: Readonly<Record<string, string>> | undefined;
  /** Name of the file part (`file`). */
  fileField: string;
  fileName: string;
  fileContentType: string;
  fileSize: number;
  /** Fixed in tests; random otherwise. */
  boundary?: string | undefined;
}

export function frameMultipart(plan: MultipartPlan): MultipartFrame {
  if (/[\r\n]/.test(plan.fileContentType)) throw new UsageError('the content type must be a single line');
  const boundary = plan.boundary ?? `----appraisal-cli-${randomBytes(16).toString('hex')}`;
  const form = new FormData();
  form.setBoundary(boundary);
  for (const [name, value] of Object.entries(plan.fields ?? {})) form.append(name, value);
  // The file part framed around no bytes at all: form-data writes its header, the empty content,
  // the line break that ends the part and the closing boundary; the file's bytes go where the
  // empty content is.
  form.append(plan.fileField, Buffer.alloc(0), { filename: plan.fileName, contentType: plan.fileContentType });
  const framed = form.getBuffer();
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
  if (!framed.subarray(framed.length - tail.length).equals(tail)) {
    throw new Error('form-data framed the multipart body in an unexpected way (its closing boundary was not last)');
  }
  const head = framed.subarray(0, framed.length - tail.length);
  return {
    contentType: form.getHeaders()['content-type'] as string,
    head,
    tail,
    contentLength: head.length + plan.fileSize + tail.length,
  };
}
