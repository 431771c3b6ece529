// `appraisal spec`: the service's published API description the CLI binds to — fetch it now, show
// where it comes from, check this CLI's commands against it, and diff it against the cached copy.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import { loadDescription } from '../../core/description/load.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';
import { runCheck } from './check.js';
import { runDiff } from './diff.js';
import { printDescription, reportSync } from './show.js';

export default function specCommand(factory: Factory): Command {
  const spec = new Command('spec').description("The service's published API description: sync, show, check, diff");

  const sync = new Command('sync').description('fetch the description now (a conditional request when cached) and cache it');
  examples(sync, ['appraisal spec sync', 'appraisal spec sync --profile staging -o json']);
  sync.action(
    action(factory, async (ctx) => {
      const loaded = await loadDescription(ctx, { refresh: true });
      reportSync(ctx, loaded);
      await printDescription(ctx, loaded);
    }),
  );

  const show = new Command('show').description('where the description comes from: source, version, fetched at, operation count');
  examples(show, ['appraisal spec show', 'appraisal spec show -o json']);
  show.action(action(factory, async (ctx) => printDescription(ctx, await loadDescription(ctx))));

  const check = new Command('check')
    .description("every operation this CLI's commands use, against the description: moved, changed or missing (exit 12 when missing)")
    .option('--all', 'list the operations published as modelled too');
  examples(check, ['appraisal spec check', 'appraisal spec check --all -o csv']);
  check.action(action<{ all?: boolean }>(factory, async (ctx, _args, options) => runCheck(ctx, spec.parent ?? spec, options.all === true)));

  const diff = new Command('diff').description(
    'what changed since the cached copy: removed, moved, changed, added operations, breaking first',
  );
  examples(diff, ['appraisal spec diff', 'appraisal spec diff -o json']);
  diff.action(action(factory, async (ctx) => runDiff(ctx)));

  for (const verb of [sync, show, check, diff]) takesOptions(verb, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  return spec.addCommand(sync).addCommand(show).addCommand(check).addCommand(diff);
}
