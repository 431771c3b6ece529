// Offline: the config file (readable, valid — reported, never fatal), the profile in use, where its
// key comes from, and the modes of the config dir and of an insecure-storage key file.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../core/context.js';
import { configDir, DEFAULT_PROFILE, type Profile } from '../../core/config.js';
import { insecureKeyPath } from '../../core/credentials/insecure-file.js';
import { error, info, ok, warning, type Item } from './finding.js';

export interface ConfigFacts {
  dir: string;
  profileName: string;
  profile: Profile | undefined;
  /** False when config.json exists but could not be read or parsed. */
  readable: boolean;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

export function checkConfig(ctx: Context): { items: Item[]; facts: ConfigFacts } {
  const items: Item[] = [];
  const dir = configDir(ctx.env);
  const path = join(dir, 'config.json');
  let raw: { activeProfile?: unknown; profiles?: Record<string, Profile> } | undefined;
  let readable = true;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8')) as typeof raw;
    if (raw === null || typeof raw !== 'object') throw new SyntaxError('not a JSON object');
    items.push(ok('config', `${path} is readable and valid`));
  } catch (thrown) {
    const code = (thrown as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') items.push(info('config', `no config file (${path}): no profiles; environment variables only`));
    else {
      readable = false;
      raw = undefined;
      const why = code === 'EACCES' ? 'permission denied' : thrown instanceof SyntaxError ? 'not valid JSON' : (thrown as Error).message;
      items.push(
        error(
          'config',
          `${path} cannot be used: ${why}`,
          `fix or move it aside (commands that read profiles refuse to run until then): mv ${path} ${path}.broken`,
        ),
      );
    }
  }
  const profiles = raw?.profiles && typeof raw.profiles === 'object' ? raw.profiles : {};
  const active = typeof raw?.activeProfile === 'string' ? raw.activeProfile : DEFAULT_PROFILE;
  const profileName = ctx.globals.profile ?? active;
  const profile = Object.hasOwn(profiles, profileName) ? { ...profiles[profileName]!, name: profileName } : undefined;
  if (profile) items.push(info('profile', `${profileName} (${profile.environment}) at ${profile.baseUrl}`));
  else if (ctx.globals.profile !== undefined)
    items.push(error('profile', `no profile "${profileName}"`, 'appraisal profiles list shows the profiles'));
  else items.push(info('profile', `no stored profile "${profileName}"`));

  const source = keySource(ctx, profile);
  items.push(source);

  const dirMode = modeOf(dir);
  if (dirMode !== undefined && (dirMode & 0o077) !== 0) {
    items.push(warning('file modes', `config dir ${dir} is mode ${dirMode.toString(8)} (others can read it)`, `chmod 700 ${dir}`));
  } else if (dirMode !== undefined) items.push(ok('file modes', `config dir ${dir} is private (${dirMode.toString(8)})`));
  if (profile?.keyStorage === 'insecure-file') {
    const file = insecureKeyPath(dir, profileName);
    const fileMode = modeOf(file);
    if (fileMode === undefined) items.push(error('key file', `${file} is missing`, `appraisal auth login --profile ${profileName}`));
    else if ((fileMode & 0o077) !== 0)
      items.push(error('key file', `${file} is mode ${fileMode.toString(8)} (others can read the key)`, `chmod 600 ${file}`));
    else items.push(ok('key file', `${file} is private (${fileMode.toString(8)})`));
  }
  return { items, facts: { dir, profileName, profile, readable } };
}

function keySource(ctx: Context, profile: Profile | undefined): Item {
  if (ctx.globals.apiKeyFile !== undefined) return info('key source', `--api-key-file ${ctx.globals.apiKeyFile}`);
  if (ctx.env.APPRAISAL_API_KEY?.trim()) {
    const shadowed = profile?.keyStorage ? ` (shadows the key stored for profile ${profile.name})` : '';
    return info('key source', `APPRAISAL_API_KEY${shadowed}`);
  }
  if (ctx.env.APPRAISAL_TOKEN?.trim()) return info('key source', 'APPRAISAL_TOKEN (bearer)');
  if (profile?.keyStorage === 'keychain') return info('key source', `the OS keychain (${profile.keyPrefix ?? 'prefix unknown'})`);
  if (profile?.keyStorage === 'insecure-file') {
    return warning(
      'key source',
      `the insecure-storage file (${profile.keyPrefix ?? 'prefix unknown'})`,
      `move it to the keychain: appraisal auth login --profile ${profile.name}`,
    );
  }
  return warning(
    'key source',
    'no key: no --api-key-file, no APPRAISAL_API_KEY, no stored key',
    'appraisal auth login, or set APPRAISAL_API_KEY for automation',
  );
}
