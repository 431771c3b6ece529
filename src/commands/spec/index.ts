// `appraisal spec`: the service's published API description the CLI binds to — fetch it now, show
// where it comes from, check this CLI's commands against it, and diff it against the cached copy.
// The noun's summary is the registry's (commands/registry.ts); its verbs are these declarations.
import { loadDescription } from '../../core/description/load.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { declaredVerbs, defineVerb, type NounVerbs } from '../../core/verb.js';
import { printDescription, reportSync } from './show.js';

// Each reads the description itself (its own request, cached or not), not one bound operation.
const takes = [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS];

const verbs: NounVerbs = [
  defineVerb({
    name: 'sync',
    summary: 'fetch the description now (a conditional request when cached) and cache it',
    takes,
    calls: 'per-request',
    examples: ['appraisal spec sync', 'appraisal spec sync --profile staging -o json'],
    async run(ctx) {
      const loaded = await loadDescription(ctx, { refresh: true });
      reportSync(ctx, loaded);
      await printDescription(ctx, loaded);
    },
  }),
  defineVerb({
    name: 'show',
    summary: 'where the description comes from: source, version, fetched at, operation count',
    takes,
    calls: 'per-request',
    examples: ['appraisal spec show', 'appraisal spec show -o json'],
    run: async (ctx) => printDescription(ctx, await loadDescription(ctx)),
  }),
  defineVerb<{ all?: boolean }>({
    name: 'check',
    summary: "every operation this CLI's commands use, against the description: moved, changed or missing (exit 12 when missing)",
    options: [{ flags: '--all', description: 'list the operations published as modelled too' }],
    takes,
    calls: 'per-request',
    examples: ['appraisal spec check', 'appraisal spec check --all -o csv'],
    run: async (ctx, _args, options) => (await import('./check.js')).runCheck(ctx, await declaredVerbs(ctx), options.all === true),
  }),
  defineVerb({
    name: 'diff',
    summary: 'what changed since the cached copy: removed, moved, changed, added operations, breaking first',
    takes,
    calls: 'per-request',
    examples: ['appraisal spec diff', 'appraisal spec diff -o json'],
    run: async (ctx) => (await import('./diff.js')).runDiff(ctx),
  }),
];

export default verbs;
