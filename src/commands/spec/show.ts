// `appraisal spec show`: where the description comes from: source, version, fetched at, operation count.
import { loadDescription } from '../../core/description/load.js';
import { defineVerb } from '../../core/verb.js';
import { printDescription } from './print.js';
import { SPEC_TAKES } from './takes.js';

export default defineVerb({
  name: 'show',
  writesOne: true,
  summary: 'where the description comes from: source, version, fetched at, operation count',
  takes: SPEC_TAKES,
  calls: 'per-request',
  examples: ['appraisal spec show', 'appraisal spec show -o json'],
  run: async (ctx) => printDescription(ctx, await loadDescription(ctx)),
});
