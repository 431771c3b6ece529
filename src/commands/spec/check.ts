// `appraisal spec check`: every operation this CLI's commands use, against the description (the
// comparison, run-check.ts, is loaded only when it runs). It reads every declaration from the context.
import { declaredVerbs, defineVerb } from '../../core/verb.js';
import { SPEC_TAKES } from './takes.js';

export default defineVerb<{ all?: boolean }>({
  name: 'check',
  summary: "every operation this CLI's commands use, against the description: moved, changed or missing (exit 12 when missing)",
  options: [{ flags: '--all', description: 'list the operations published as modelled too' }],
  takes: SPEC_TAKES,
  calls: 'per-request',
  examples: ['appraisal spec check', 'appraisal spec check --all -o csv'],
  run: async (ctx, _args, options) => (await import('./run-check.js')).runCheck(ctx, await declaredVerbs(ctx), options.all === true),
});
