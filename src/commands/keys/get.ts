// `appraisal keys get ID|PREFIX`: one key's record. Never a secret.
import type { Context } from '../../core/context.js';
import { findKey, KEY_PATH_TEMPLATE, KEYS_PATH, parseKeyReference } from './records.js';
import { writeRecord } from '../../output/index.js';
import { KEYS_VIEW, secretFreeContext } from './view.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export async function runGet(ctx: Context, reference: string | undefined): Promise<void> {
  const parsed = parseKeyReference(reference);
  const safe = secretFreeContext(ctx);
  const record = await findKey(await safe.api(), parsed, ctx.signal);
  await writeRecord(safe, record, KEYS_VIEW);
}

export default defineVerb({
  name: 'get',
  writesOne: true,
  summary: 'show one API key (never its secret)',
  arguments: [{ name: 'id-or-prefix', description: 'key id (UUID) or prefix (apk_xxxxxxxx)', required: true }],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [
    { method: 'GET', path: KEY_PATH_TEMPLATE },
    { method: 'GET', path: KEYS_PATH },
  ],
  examples: ['appraisal keys get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', 'appraisal keys get apk_AbCd1234 -o json'],
  run: (ctx, [reference]) => runGet(ctx, reference),
});
