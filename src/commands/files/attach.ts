// `files attach ID --property ID | --assignment ID`: one attachment per call.
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import { writeRecord } from '../../output/index.js';
import { requireRecord } from '../shared/crud.js';
import { fillPath } from '../../core/description/operations.js';
import { FILE_ATTACHMENTS } from './paths.js';
import { RESOURCES } from '../../core/resources.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export interface AttachFlags {
  property?: string;
  assignment?: string;
}

export async function runAttach(ctx: Context, id: string | undefined, flags: AttachFlags): Promise<void> {
  const fileId = requireUuid(id, 'file id');
  if ((flags.property === undefined) === (flags.assignment === undefined)) {
    throw new UsageError('files attach needs exactly one of --property ID and --assignment ID');
  }
  const body =
    flags.property !== undefined
      ? { targetType: 'property', targetId: requireUuid(flags.property, '--property') }
      : { targetType: 'assignment', targetId: requireUuid(flags.assignment, '--assignment') };
  const api = await ctx.api();
  const path = fillPath(FILE_ATTACHMENTS, { id: fileId });
  // The file's record, as get and create check theirs: `{}` printed with exit 0 would look like success.
  const record = requireRecord(await api.send('POST', path, body), `POST ${path}`);
  await writeRecord(ctx, record, RESOURCES.files.view);
}

export default defineVerb<AttachFlags>({
  name: 'attach',
  writesOne: true,
  summary: 'attach a file to a property or an assignment',
  arguments: [{ name: 'id', description: 'file id (UUID)', required: true }],
  options: [
    { flags: '--property <id>', description: 'the property to attach it to' },
    { flags: '--assignment <id>', description: 'the assignment to attach it to' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [{ method: 'POST', path: FILE_ATTACHMENTS }],
  examples: [
    'appraisal files attach FILE_ID --assignment 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal files attach FILE_ID --property PROPERTY_ID -o json --fields id,attachments',
  ],
  run: (ctx, [id], flags) => runAttach(ctx, id, flags),
});
