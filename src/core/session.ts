// What a session is, and resolving one: which profile, base URL, environment and credential a command
// uses, with the guards applied before any request: a stored key never leaves its origin, an unknown
// environment is production, and every keychain call is bounded in time. It reads the parts of the
// Context it needs (SessionContext) without importing context.ts, which names Session: no cycle.
import type { ConfigStore, Environment, Profile } from './config.js';
import { validateProfileName } from './config.js';
import { describeSource, holdSecret, type ResolvedCredential } from './credentials/credential.js';
import type { Env } from './env.js';
import { UsageError } from './errors.js';
import type { GlobalOptions } from './global-options.js';
import type { IO } from './io.js';
import { readApiKeyFile } from './credentials/key-file.js';
import type { SecretStore } from './credentials/keychain.js';
import { profileSlot } from './credentials/key-slot.js';
import { shouldWarnInsecure } from './credentials/insecure-file.js';
import { defaultEnvironmentFor, normalizeBaseUrl, originOf } from './credentials/origin.js';
import { missingCredentialError, resolveCredential } from './credentials/resolve.js';

export interface Session {
  profileName: string;
  /** The stored profile, when one exists. */
  profile: Profile | undefined;
  /** Effective base URL (profile, overridden by --base-url / APPRAISAL_BASE_URL). */
  baseUrl: string;
  /** The base URL's origin (credentials/origin.ts originOf): what a stored key, a journal or a checkpoint is bound to. */
  origin: string;
  environment: Environment;
  caFile: string | undefined;
  /** Made by holdSecret: the redactor knows it. */
  credential: ResolvedCredential | undefined;
}

/** The parts of the Context a session is resolved from (a Context is one; tests hand in its fakes). */
export interface SessionContext {
  readonly io: IO;
  readonly env: Env;
  readonly globals: GlobalOptions;
  readonly cwd: string;
  now(): Date;
  config(): Promise<ConfigStore>;
  keychain(): SecretStore;
}

/** The name of the base URL's source, for messages. */
function baseUrlSource(ctx: SessionContext): string {
  return ctx.env.APPRAISAL_BASE_URL !== undefined && ctx.env.APPRAISAL_BASE_URL === ctx.globals.baseUrl
    ? 'APPRAISAL_BASE_URL'
    : '--base-url';
}

export async function resolveSession(ctx: SessionContext): Promise<Session> {
  const config = await ctx.config();
  const profileName = validateProfileName(ctx.globals.profile ?? config.activeProfileName());
  const profile = config.getProfile(profileName);

  let baseUrl: string;
  if (ctx.globals.baseUrl !== undefined) baseUrl = normalizeBaseUrl(ctx.globals.baseUrl, baseUrlSource(ctx));
  else if (profile) baseUrl = profile.baseUrl;
  else {
    const named = ctx.globals.profile !== undefined;
    // The active profile gone (`profiles remove` took it, or only named ones were made) while others
    // are set up: "no profile is set up" would be wrong. Say none is active, and how to choose one.
    const others = named ? [] : config.listProfiles().map((one) => one.name);
    if (others.length > 0)
      throw new UsageError(`no profile is active; the profiles set up are: ${others.join(', ')}`, {
        hint: `choose one with \`appraisal profiles use ${others.length === 1 ? others[0] : 'NAME'}\`, or name it for one command with --profile NAME`,
      });
    throw new UsageError(
      named ? `no profile "${profileName}"` : `no base URL: no profile is set up and neither --base-url nor APPRAISAL_BASE_URL is given`,
      {
        hint: `run \`appraisal auth login --profile ${profileName} --base-url URL\`, or set APPRAISAL_BASE_URL and APPRAISAL_API_KEY for automation`,
      },
    );
  }

  // The profile's environment and CA describe its own origin only; pointed elsewhere, a run is
  // what APPRAISAL_ENVIRONMENT / --environment declares, else production unless it targets a
  // loopback host. A declaration never overrides a stored profile's environment.
  const origin = originOf(baseUrl);
  const sameOrigin = profile !== undefined && originOf(profile.baseUrl) === origin;
  const declared = ctx.globals.environment;
  if (sameOrigin && declared !== undefined && declared !== profile.environment) {
    throw new UsageError(
      `profile "${profileName}" is a ${profile.environment} profile; APPRAISAL_ENVIRONMENT/--environment says ${declared}`,
      {
        hint: `drop the declaration, or change the profile with \`appraisal auth login --profile ${profileName} --environment ${declared}\``,
      },
    );
  }
  const environment = sameOrigin ? profile.environment : (declared ?? defaultEnvironmentFor(baseUrl));
  const caFile = ctx.globals.caFile ?? (sameOrigin ? profile.caFile : undefined);

  const resolved = await resolveCredential(
    { profileName, profile, baseUrl, apiKeyFile: ctx.globals.apiKeyFile, env: ctx.env },
    {
      readApiKeyFile: (path) => readApiKeyFile(path, { stdin: ctx.io.stdin, cwd: ctx.cwd }),
      slot: (stored) => profileSlot(config, () => ctx.keychain(), stored),
      notice: (message) => ctx.io.notice(message),
      warn: (message) => ctx.io.warn(message.replace(/^warning:\s*/, '')),
      insecureWarning: (message) => {
        if (shouldWarnInsecure(config.dir, profileName, ctx.now(), ctx.globals.quiet)) ctx.io.warn(message);
      },
    },
  );
  const credential = resolved && holdSecret(ctx.io, resolved.secret, resolved.source, resolved.kind);
  ctx.io.debug(
    `* profile ${profileName} (${environment}) at ${baseUrl}; credential: ${credential ? `${credential.prefix === '' ? 'a key (too short to show any of it)' : `${credential.prefix}…`} from ${describeSource(credential, ctx.globals.apiKeyFile)}` : 'none'}`,
  );

  return { profileName, profile, baseUrl, origin, environment, caFile, credential };
}

/** The session's credential, or exit 4 with the commands that would fix it. */
export function requireCredential(session: Session): ResolvedCredential {
  if (!session.credential) throw missingCredentialError(session.profileName);
  return session.credential;
}
