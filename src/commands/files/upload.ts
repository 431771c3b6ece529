// `files upload PATH`: the file is streamed from disk (the HTTP client sends a multipart body with an
// exact content-length, so memory does not grow with the file), hashed while it is sent, and the
// service's record is checked against what was sent. The path is checked before any request.
import { basename, resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { ContractError, UsageError } from '../../core/errors.js';
import { contentMismatch, expectedContent } from './transfer/content.js';
import { contentTypeFor, isMediaType, OCTET_STREAM } from './transfer/content-type.js';
import { checkReadableFile } from './transfer/local-file.js';
import { quoteInput, requireUuid } from '../../core/ids.js';
import { createProgress, writeRecord } from '../../output/index.js';
import { RESOURCES } from '../../core/resources.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export interface UploadFlags {
  property?: string;
  assignment?: string;
  name?: string;
  contentType?: string;
}

// Control characters would break the multipart part's headers.
const CONTROL = /[\u0000-\u001f\u007f]/;

export async function runUpload(ctx: Context, shownPath: string, flags: UploadFlags): Promise<void> {
  const fields: Record<string, string> = {};
  if (flags.property !== undefined) fields.propertyId = requireUuid(flags.property, '--property');
  if (flags.assignment !== undefined) fields.assignmentId = requireUuid(flags.assignment, '--assignment');
  if (flags.contentType !== undefined && !isMediaType(flags.contentType)) {
    throw new UsageError(`--content-type must be a media type such as application/pdf, got ${quoteInput(flags.contentType)}`);
  }
  const fileName = flags.name ?? basename(shownPath);
  if (fileName.trim() === '' || CONTROL.test(fileName))
    throw new UsageError(`--name must be a file name without control characters, got ${quoteInput(fileName)}`);
  const local = await checkReadableFile(resolve(ctx.cwd, shownPath), shownPath);
  await ctx.output.ready();
  const contentType = flags.contentType ?? contentTypeFor(fileName) ?? contentTypeFor(local.path) ?? OCTET_STREAM;

  const api = await ctx.api();
  const progress = createProgress(ctx, RESOURCES.files.view.label);
  let result;
  try {
    result = await api.upload({
      path: RESOURCES.files.path,
      filePath: local.path,
      fileName,
      contentType,
      fields,
      onProgress: (sent, total) => progress.bytes(sent, total),
      signal: ctx.signal,
    });
  } finally {
    progress.stop();
  }
  const { record } = result;
  const mismatch = contentMismatch(expectedContent(record), { size: result.size, sha256: result.sha256 });
  if (mismatch) {
    throw new ContractError(`upload check failed: file ${record.id} was stored with ${mismatch} (what was sent)`, {
      hint: `the stored copy may be damaged: compare with \`appraisal files get ${record.id}\`, then delete it and upload again`,
    });
  }
  await writeRecord(ctx, record, RESOURCES.files.view);
}

export default defineVerb<UploadFlags>({
  name: 'upload',
  writesOne: true,
  summary: 'upload a file (streamed; sha256 checked against the service)',
  arguments: [{ name: 'path', description: 'the file to upload', required: true }],
  options: [
    { flags: '--property <id>', description: 'attach it to this property' },
    { flags: '--assignment <id>', description: 'attach it to this assignment' },
    { flags: '--name <name>', description: 'file name to store (default: the name of PATH)' },
    { flags: '--content-type <type>', description: 'media type (default: guessed from the extension, else application/octet-stream)' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [{ method: 'POST', path: RESOURCES.files.path }],
  examples: [
    'appraisal files upload ./report.pdf --assignment 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    "appraisal files upload ./IMG_0042.jpg --property PROPERTY_ID --name 'front elevation.jpg'",
  ],
  run: (ctx, [path], flags) => runUpload(ctx, path!, flags),
});
