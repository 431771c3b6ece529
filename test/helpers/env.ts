// The one environment a test's CLI gets, in process (test/helpers/run.ts) or spawned
// (test/helpers/spawn.ts): the parent's environment without anything that would steer the CLI
// (APPRAISAL_*, proxies, NO_COLOR), plus a private HOME and config directory per test.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

/** The repository: the working directory a command test runs in unless it says otherwise. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The parent's environment without APPRAISAL_*, *_PROXY and NO_COLOR; `extra` over it (undefined removes one). */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (key.startsWith('APPRAISAL_') || key === 'NO_COLOR' || /_PROXY$/i.test(key)) continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** A fresh, private HOME/config dir for one test (so no test sees another's profiles). */
export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const home = tempDir('appraisal-home-');
  return { HOME: home, APPRAISAL_CONFIG_DIR: join(home, 'config'), XDG_CONFIG_HOME: join(home, '.config'), ...extra };
}
