// `appraisal spec diff`: what changed since the cached copy (the comparison, run-diff.ts, is loaded
// only when it runs).
import { defineVerb } from '../../core/verb.js';
import { SPEC_TAKES } from './takes.js';

export default defineVerb({
  name: 'diff',
  summary: 'what changed since the cached copy: removed, moved, changed, added operations, breaking first',
  takes: SPEC_TAKES,
  calls: 'per-request',
  examples: ['appraisal spec diff', 'appraisal spec diff -o json'],
  run: async (ctx) => (await import('./run-diff.js')).runDiff(ctx),
});
