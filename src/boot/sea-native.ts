// The keychain's native addon (@napi-rs/keyring) for the single executable. A process can load a
// native addon only from a file, so the executable carries the addon as an asset and writes it, once,
// to a private directory of the user (XDG_CACHE_HOME or ~/.cache, then appraisal-cli/native/), named
// by its SHA-256. When it cannot load (no addon for this platform, a noexec home, a cache path another
// user could change), the keychain is "not available" and auth login says so, naming
// --insecure-storage and APPRAISAL_API_KEY (core/credentials/keychain.ts).
//
// The bytes loaded are the bytes verified (issue 37: another user who could swap the file between the
// check and the load made the executable run their code). Two rules, either enough on its own:
//   - the directory and every one above it are checked as OpenSSH checks ~/.ssh (private-directory.ts),
//     so no other user can swap anything there; a cache path another user owns or can write is
//     refused with one line naming the fallback;
//   - the file is opened once, checked (regular, ours, writable by no one else) and hashed from that
//     descriptor, and on Linux loaded through /proc/self/fd/N: the same inode, whatever its name
//     points at by then.
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { getAsset } from 'node:sea';
import { privateDirectory, UnsafeDirectoryError } from './private-directory.js';

/** The asset's name (scripts/package-sea.mjs). */
export const KEYRING_ASSET = 'keyring.node';

/** What the README names when the cache path is refused. */
const FALLBACK = 'set XDG_CACHE_HOME to a directory only you can write, or install the npm package';

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

function nativeDirectory(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  const dir = join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'appraisal-cli', 'native');
  try {
    return privateDirectory(dir);
  } catch (error) {
    if (error instanceof UnsafeDirectoryError) throw new Error(`refusing the cache ${error.message}: ${FALLBACK}`);
    throw error;
  }
}

/** The file opened once, if it holds exactly the addon and nobody else can change it: its descriptor. */
function openVerified(file: string, digest: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined; // Not written yet (or a link: replaced below).
  }
  const info = fstatSync(fd);
  const ours = typeof process.getuid !== 'function' || info.uid === process.getuid();
  if (info.isFile() && ours && (info.mode & 0o022) === 0 && sha256(readFileSync(fd)) === digest) return fd;
  closeSync(fd);
  return undefined;
}

let addon: unknown;

export function loadKeyringAddon(): unknown {
  if (addon !== undefined) return addon;
  let data: Buffer;
  try {
    data = Buffer.from(getAsset(KEYRING_ASSET));
  } catch {
    throw new Error(`this executable carries no keychain addon for ${process.platform}-${process.arch}`);
  }
  const digest = sha256(data);
  const dir = nativeDirectory();
  const file = join(dir, `keyring-${digest.slice(0, 16)}.node`);
  let fd = openVerified(file, digest);
  if (fd === undefined) {
    const temp = join(dir, `.keyring-${process.pid}-${Date.now()}.tmp`);
    writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
    fd = openVerified(file, digest);
    if (fd === undefined) throw new Error(`${file} changed while it was written`);
  }
  try {
    const module = { exports: {} as unknown };
    process.dlopen(module, existsSync(`/proc/self/fd/${fd}`) ? `/proc/self/fd/${fd}` : file);
    addon = module.exports;
    return addon;
  } finally {
    closeSync(fd);
  }
}
