// `--insecure-storage`: the key in a plain file only its owner can read (0600, in a 0700 directory
// under the config dir). For machines without a usable keychain; every use prints a warning.
import { rmSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { ensurePrivateDir, validateProfileName } from '../config.js';
import { LocalEnvironmentError } from '../errors.js';

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
    const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) days = raw as Record<string, unknown>;
  } catch {
    // No record yet.
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

/** The stored key, or undefined when there is no file. Refuses a file others can read. */
export function readInsecureKey(configDir: string, profileName: string): string | undefined {
  const path = insecureKeyPath(configDir, profileName);
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LocalEnvironmentError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new LocalEnvironmentError(`${path} can be read by other users (mode ${(mode & 0o777).toString(8)}); refusing to use it`, {
      hint: `run \`chmod 600 ${path}\`, or log in again`,
    });
  }
  const secret = readFileSync(path, 'utf8').trim();
  return secret === '' ? undefined : secret;
}

/** Write atomically: a temp file created 0600, then renamed over the old one. */
export function writeInsecureKey(configDir: string, profileName: string, secret: string): string {
  const path = insecureKeyPath(configDir, profileName);
  const dir = credentialsDir(configDir);
  ensurePrivateDir(configDir);
  ensurePrivateDir(dir);
  try {
    writeFileAtomicSync(path, `${secret}\n`, { mode: 0o600 });
  } catch (error) {
    throw new LocalEnvironmentError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
  return path;
}

/** True when a file was removed. */
export function deleteInsecureKey(configDir: string, profileName: string): boolean {
  const path = insecureKeyPath(configDir, profileName);
  try {
    statSync(path);
  } catch {
    return false;
  }
  rmSync(path, { force: true });
  return true;
}
