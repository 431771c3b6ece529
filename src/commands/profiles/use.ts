// `appraisal profiles use NAME`: the profile commands use when -p/APPRAISAL_PROFILE is not given.
import { validateProfileName } from '../../core/config.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { defineVerb } from '../../core/verb.js';

export async function runUse(ctx: Context, name: string): Promise<void> {
  const config = await ctx.config();
  const profile = config.getProfile(validateProfileName(name));
  if (!profile) {
    const names = config.listProfiles().map((p) => p.name);
    throw new UsageError(`no profile "${name}"`, {
      hint: names.length ? `the profiles are: ${names.join(', ')}` : 'create one with `appraisal auth login --profile NAME --base-url URL`',
    });
  }
  await config.setActiveProfile(profile.name);
  ctx.io.writeErr(`Now using profile ${profile.name} (${profile.environment}, ${profile.baseUrl})`);
}

export default defineVerb({
  name: 'use',
  summary: 'make a profile the active one',
  arguments: [{ name: 'name', description: 'profile name', required: true }],
  takes: [],
  calls: 'none',
  examples: ['appraisal profiles use staging'],
  run: (ctx, [name]) => runUse(ctx, name!),
});
