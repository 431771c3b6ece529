// `appraisal profiles use NAME`: the profile commands use when -p/APPRAISAL_PROFILE is not given.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import { validateProfileName } from '../../core/config.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { takesOptions } from '../../core/global-options.js';

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

export default function useCommand(factory: Factory): Command {
  const command = new Command('use').argument('<name>', 'profile name').description('make a profile the active one');
  takesOptions(command);
  examples(command, ['appraisal profiles use staging']);
  return command.action(action(factory, (ctx, [name]) => runUse(ctx, name!)));
}
