// `files download ID [--out PATH]`: the metadata first (size, sha256), then the bytes, streamed and
// checked. With --out the file appears at PATH only complete and verified; without it the bytes go
// to stdout (never to a terminal) and are checked once they have all been written.
import type { ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { ContractError, UsageError } from '../../core/errors.js';
import { expectedContent } from './transfer/content.js';
import { receiveToFile, receiveToStream, type FileTarget } from './transfer/save-download.js';
import { requireUuid } from '../../core/ids.js';
import { createProgress } from '../../output/index.js';
import { fillPath } from '../../core/description/operations.js';
import { RESOURCES, recordPath, recordTemplate } from '../../core/resources.js';
import { FILE_CONTENT } from './paths.js';
import { SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export async function runDownload(ctx: Context, id: string | undefined): Promise<void> {
  const fileId = requireUuid(id, 'file id');
  // The output plan's --out (checked once); `--out -` is stdout, as everywhere.
  const out = ctx.output.outPath;
  let target: FileTarget | undefined;
  if (out !== undefined) target = { ...(await ctx.output.target())!, shown: out };
  else if (ctx.io.stdoutIsTTY) {
    throw new UsageError('refusing to write binary data to a terminal; use --out PATH', {
      hint: `appraisal files download ${fileId} --out FILE`,
    });
  }

  const api = await ctx.api();
  const metadata = await api.get<ApiRecord>(recordPath(RESOURCES.files, fileId));
  const expected = expectedContent(metadata);
  const what = `file ${fileId}`;
  const response = await api.download(fillPath(FILE_CONTENT, { id: fileId }), ctx.signal);
  if (response.contentLength !== undefined) {
    if (expected.size !== undefined && response.contentLength !== expected.size) {
      response.body.destroy();
      throw new ContractError(`the service sends ${response.contentLength} bytes for ${what}, but its record says ${expected.size}`);
    }
    expected.size ??= response.contentLength;
  }

  const progress = createProgress(ctx, 'bytes');
  const options = { expected, what, signal: ctx.signal, onProgress: (received: number) => progress.update(received, expected.size) };
  try {
    if (!target) {
      await receiveToStream(response.body, ctx.io.stdout, options);
      return;
    }
    const content = await receiveToFile(response.body, target, options);
    const checked = expected.sha256 ? 'sha256 verified' : `sha256 ${content.sha256}; the file's record has none to check it against`;
    ctx.io.notice(`Saved ${what} to ${target.shown} (${content.size} bytes, ${checked})`);
  } finally {
    progress.stop();
  }
}

export default defineVerb({
  name: 'download',
  summary: 'download a file to --out PATH (atomically, verified), or to stdout when it is not a terminal',
  arguments: [{ name: 'id', description: 'file id (UUID)', required: true }],
  takes: [...SERVICE_OPTIONS, 'out'],
  calls: [
    { method: 'GET', path: recordTemplate(RESOURCES.files) },
    { method: 'GET', path: FILE_CONTENT },
  ],
  examples: [
    'appraisal files download 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 --out report.pdf',
    'appraisal files download ID | pdftotext - -',
  ],
  notes:
    'With --out PATH the bytes go to a temp file beside PATH, which replaces PATH only once its size\n' +
    "and sha256 match the file's record: a failed or interrupted download leaves nothing behind\n" +
    '(one killed outright leaves its temp file, which the next download to the same PATH removes).\n' +
    'To stdout, the check can only run after the bytes were written: a mismatch still exits 9.',
  run: (ctx, [id]) => runDownload(ctx, id),
});
