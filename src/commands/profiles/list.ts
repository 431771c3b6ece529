// `appraisal profiles list`: every profile, the active one marked, with its environment and the
// prefix of its stored key (never the key).
import type { Context } from '../../core/context.js';
import { writeRecords, type View } from '../../output/index.js';
import { OUTPUT_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export const PROFILES_VIEW: View = {
  label: 'profiles',
  singular: 'profile',
  columns: ['active', 'name', 'environment', 'baseUrl', 'keyPrefix', 'keyStorage'],
};

export async function runList(ctx: Context): Promise<void> {
  const config = await ctx.config();
  const active = config.activeProfileName();
  const profiles = config.listProfiles();
  if (profiles.length === 0) {
    ctx.io.notice('no profiles yet: run `appraisal auth login --base-url URL` to create one');
  }
  async function* records() {
    for (const profile of profiles) {
      yield {
        active: profile.name === active,
        name: profile.name,
        environment: profile.environment,
        baseUrl: profile.baseUrl,
        keyPrefix: profile.keyPrefix ?? null,
        keyStorage: profile.keyStorage ?? null,
        caFile: profile.caFile ?? null,
      };
    }
  }
  await writeRecords(ctx, records(), PROFILES_VIEW);
}

export default defineVerb({
  name: 'list',
  summary: 'list the profiles, marking the active one',
  takes: OUTPUT_OPTIONS,
  calls: 'none',
  examples: ['appraisal profiles list', 'appraisal profiles list -o json'],
  run: (ctx) => runList(ctx),
});
