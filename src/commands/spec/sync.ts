// `appraisal spec sync`: fetch the description now (a conditional request when cached) and cache it.
import { loadDescription } from '../../core/description/load.js';
import { defineVerb } from '../../core/verb.js';
import { printDescription, reportSync } from './print.js';
import { SPEC_TAKES } from './takes.js';

export default defineVerb({
  name: 'sync',
  summary: 'fetch the description now (a conditional request when cached) and cache it',
  takes: SPEC_TAKES,
  calls: 'per-request',
  examples: ['appraisal spec sync', 'appraisal spec sync --profile staging -o json'],
  async run(ctx) {
    const loaded = await loadDescription(ctx, { refresh: true });
    reportSync(ctx, loaded);
    await printDescription(ctx, loaded);
  },
});
