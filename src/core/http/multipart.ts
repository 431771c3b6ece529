// multipart/form-data framing (RFC 7578) built by hand so that the exact content-length is known
// before the first byte is sent: preamble (fields + file part headers), the file bytes, epilogue.
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';

export interface MultipartFrame {
  boundary: string;
  /** `multipart/form-data; boundary=…` */
  contentType: string;
  /** Everything before the file bytes. */
  preamble: Buffer;
  /** Everything after them. */
  epilogue: Buffer;
  /** preamble + file + epilogue, in bytes. */
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

/** Quote a name or filename the way browsers do (WHATWG): `"`, CR and LF percent-encoded. */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

export function frameMultipart(plan: MultipartPlan): MultipartFrame {
  if (/[\r\n]/.test(plan.fileContentType)) throw new UsageError('the content type must be a single line');
  const boundary = plan.boundary ?? `----appraisal-cli-${randomBytes(16).toString('hex')}`;
  const parts: string[] = [];
  for (const [name, value] of Object.entries(plan.fields ?? {})) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`);
  }
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(plan.fileField)}; filename=${quoted(plan.fileName)}\r\n` +
      `Content-Type: ${plan.fileContentType}\r\n\r\n`,
  );
  const preamble = Buffer.from(parts.join(''), 'utf8');
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    preamble,
    epilogue,
    contentLength: preamble.length + plan.fileSize + epilogue.length,
  };
}
