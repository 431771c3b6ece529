// The content type sent with an upload when --content-type is not given: a small table of the
// documents an appraisal office handles; anything else is sent as opaque bytes.
import { extname } from 'node:path';

export const OCTET_STREAM = 'application/octet-stream';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.zip': 'application/zip',
};

/** The content type for a file name's extension, or undefined when the table does not know it. */
export function contentTypeFor(fileName: string): string | undefined {
  return BY_EXTENSION[extname(fileName).toLowerCase()];
}

// type "/" subtype, optional parameters; no spaces or control characters in the essence.
const MEDIA_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\r\n]*"))*$/;

export function isMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value);
}
