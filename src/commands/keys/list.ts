// `appraisal keys list`: every key of the organization — prefix, name, scopes, created, expires,
// last used, revoked, and whether it is a lease (`keys lease`). Never a secret.
import type { Context } from '../../core/context.js';
import { KEYS_PATH } from './records.js';
import { listCollection } from '../shared/list-records.js';
import { KEYS_VIEW, secretFreeContext } from './view.js';
import { leaseMarkingContext } from './lease/lease-marks.js';
import { CSV_OPTIONS, OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export async function runList(ctx: Context): Promise<void> {
  await listCollection(
    leaseMarkingContext(secretFreeContext(ctx)),
    KEYS_PATH,
    {},
    { ...KEYS_VIEW, columns: [...KEYS_VIEW.columns, 'lease'] },
  );
}

export default defineVerb({
  name: 'list',
  summary: 'list the API keys of the organization (prefixes and metadata, never a secret)',
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CSV_OPTIONS, ...PAGING_OPTIONS],
  calls: [{ method: 'GET', path: KEYS_PATH }],
  examples: ['appraisal keys list', "appraisal keys list -o json | jq -r '.[] | select(.revokedAt == null) | .prefix'"],
  run: (ctx) => runList(ctx),
});
