// `appraisal completion __profiles` (hidden): the profile names the completion scripts call for.
import type { Context } from '../../core/context.js';
import { defineVerb } from '../../core/verb.js';

/** Profile names, one a line, for the scripts. Never fails loudly: a completion must not print errors. */
async function printProfiles(ctx: Context): Promise<void> {
  try {
    const config = await ctx.config();
    const names = config.listProfiles().map((profile) => profile.name);
    if (names.length > 0) ctx.io.stdout.write(`${names.join('\n')}\n`);
  } catch (error) {
    ctx.io.debug(`completion: cannot list profiles: ${(error as Error).message}`);
  }
}

export default defineVerb({
  name: '__profiles',
  summary: 'profile names, for the completion scripts',
  takes: [],
  calls: 'none',
  hidden: true,
  examples: [],
  run: printProfiles,
});
