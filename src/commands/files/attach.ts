// `files attach ID --property ID | --assignment ID`: one attachment per call.
import { Command } from 'commander';
import type { ApiRecord } from '../../core/api-client.js';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import { writeRecord } from '../../output/index.js';
import { calls, fillPath } from '../../core/description/operations.js';
import { FILE_ATTACHMENTS } from './paths.js';
import { RESOURCES } from '../../core/resources.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

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
  const record = await api.send<ApiRecord>('POST', fillPath(FILE_ATTACHMENTS, { id: fileId }), body);
  await writeRecord(ctx, record, RESOURCES.files.view);
}

export default function attachCommand(factory: Factory): Command {
  const command = new Command('attach')
    .argument('<id>', 'file id (UUID)')
    .description('attach a file to a property or an assignment')
    .option('--property <id>', 'the property to attach it to')
    .option('--assignment <id>', 'the assignment to attach it to');
  calls(command, { method: 'POST', path: FILE_ATTACHMENTS });
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, [
    'appraisal files attach FILE_ID --assignment 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal files attach FILE_ID --property PROPERTY_ID -o json --fields id,attachments',
  ]);
  return command.action(action<AttachFlags>(factory, (ctx, [id], flags) => runAttach(ctx, id, flags)));
}
