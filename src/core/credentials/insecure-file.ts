// `--insecure-storage`: the key in a plain file only its owner can read (0600, in a 0700 directory
// under the config dir). For machines without a usable keychain; every use prints a warning.
// The file records the origin the key was stored for (`{"origin": …, "key": …}`), and a key is only
// read for that origin (issue 26 §6): config.json alone (a profile's baseUrl and keyOrigin) cannot
// send it elsewhere, as the keychain's `<profile>@<origin>` account already ensures. A file written
// before it held the origin (the key alone) is still read; the next login rewrites it with one.
import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { checkTrustedDir, ensurePrivateDir, validateProfileName } from '../config.js';
import { LocalEnvironmentError, SafetyError } from '../errors.js';
import { readOwnedSync, UnsafeFileError } from '../owned-file.js';
import { displayOrigin } from './origin.js';

/** Far more than a key and its origin. */
const KEY_FILE_MAX_BYTES = 16 * 1024;

export function credentialsDir(configDir: string): string {
  return join(configDir, 'credentials');
}

export function insecureKeyPath(configDir: string, profileName: string): string {
  return join(credentialsDir(configDir), `${validateProfileName(profileName)}.key`);
}

/** Printed (as a warning) every time such a key is stored or used. */
export function insecureStorageWarning(profileName: string, path: string): string {
  return `profile ${profileName}: the key is stored in plain text in ${path} (--insecure-storage); prefer the OS keychain, or APPRAISAL_API_KEY for automation`;
}

const WARNED_FILE = 'insecure-storage-warned.json';

function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Whether to print the insecure-storage warning now: always, except under -q, where it is printed
 * the first time each day per profile (cron logs would otherwise get it on every run). The days are
 * kept in <config dir>/insecure-storage-warned.json; failing to read or write it means warning.
 */
export function shouldWarnInsecure(configDir: string, profileName: string, now: Date, quiet: boolean): boolean {
  if (!quiet) return true;
  const path = join(configDir, WARNED_FILE);
  let days: Record<string, unknown> = {};
  try {
    const raw: unknown = JSON.parse(readOwnedSync(path, 64 * 1024) ?? '{}');
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) days = raw as Record<string, unknown>;
  } catch {
    // No record yet, or not one of ours (never waited on, never followed).
  }
  const today = localDay(now);
  if (days[profileName] === today) return false;
  try {
    writeFileAtomicSync(path, `${JSON.stringify({ ...days, [profileName]: today })}\n`, { mode: 0o600 });
  } catch {
    // Then it is said again next time: better than never.
  }
  return true;
}

/** An origin for a message; the file's own text (which may be anything) as it is when it is none. */
function shownOrigin(origin: string): string {
  try {
    return displayOrigin(origin);
  } catch {
    return JSON.stringify(origin.slice(0, 80));
  }
}

interface KeyFileContent {
  /** Undefined for a file written before the origin was recorded. */
  origin: string | undefined;
  key: string;
}

function parseKeyFile(text: string): KeyFileContent | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!trimmed.startsWith('{')) return { origin: undefined, key: trimmed };
  try {
    const value = JSON.parse(trimmed) as { origin?: unknown; key?: unknown };
    if (typeof value.origin === 'string' && typeof value.key === 'string' && value.key.trim() !== '') {
      return { origin: value.origin, key: value.key.trim() };
    }
  } catch {
    // Reported below.
  }
  return { origin: '(unreadable)', key: '' };
}

/**
 * The key stored for `origin`, or undefined when there is no file. Refuses (exit 2) a file that is
 * not a regular file of ours with one link or that others can read, in a credentials dir others can
 * write; and (exit 10) a key the file says was stored for another origin.
 */
export function readInsecureKey(configDir: string, profileName: string, origin: string): string | undefined {
  const path = insecureKeyPath(configDir, profileName);
  checkTrustedDir(credentialsDir(configDir));
  let text: string | undefined;
  try {
    text = readOwnedSync(path, KEY_FILE_MAX_BYTES, { private: true, refuseLonger: true });
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const content = text === undefined ? undefined : parseKeyFile(text);
  if (content === undefined) return undefined;
  if (content.origin !== undefined && content.origin !== origin) {
    throw new SafetyError(
      `the key file of profile "${profileName}" (${path}) was stored for ${shownOrigin(content.origin)}; refusing to send it to ${shownOrigin(origin)}`,
      {
        hint: `config.json names another origin than the key was stored for: check it, then log in again (\`appraisal auth login --profile ${profileName}\`)`,
      },
    );
  }
  return content.key;
}

/** Write atomically: a temp file created 0600, then renamed over the old one. Records `origin`. */
export function writeInsecureKey(configDir: string, profileName: string, secret: string, origin: string): string {
  const path = insecureKeyPath(configDir, profileName);
  const dir = credentialsDir(configDir);
  ensurePrivateDir(configDir);
  ensurePrivateDir(dir);
  try {
    writeFileAtomicSync(path, `${JSON.stringify({ origin, key: secret })}\n`, { mode: 0o600 });
  } catch (error) {
    throw new LocalEnvironmentError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
  return path;
}

/** True when a file was removed. */
export function deleteInsecureKey(configDir: string, profileName: string): boolean {
  const path = insecureKeyPath(configDir, profileName);
  try {
    lstatSync(path);
  } catch {
    return false;
  }
  rmSync(path, { force: true });
  return true;
}
