// `appraisal keys list`: every key of the organization — prefix, name, scopes, created, expires,
// last used, revoked, and whether it is a lease (`keys lease`). Never a secret.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { KEYS_PATH } from './records.js';
import { listCollection } from '../shared/list.js';
import { calls } from '../../core/description/operations.js';
import { KEYS_VIEW, secretFreeContext } from './view.js';
import { leaseMarkingContext } from './lease/lease-marks.js';
import { OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

export async function runList(ctx: Context): Promise<void> {
  await listCollection(
    leaseMarkingContext(secretFreeContext(ctx)),
    KEYS_PATH,
    {},
    { ...KEYS_VIEW, columns: [...KEYS_VIEW.columns, 'lease'] },
  );
}

export default function listCommand(factory: Factory): Command {
  const command = new Command('list').description('list the API keys of the organization (prefixes and metadata, never a secret)');
  calls(command, { method: 'GET', path: KEYS_PATH });
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...PAGING_OPTIONS);
  examples(command, ['appraisal keys list', "appraisal keys list -o json | jq -r '.[] | select(.revokedAt == null) | .prefix'"]);
  return command.action(action(factory, (ctx) => runList(ctx)));
}
