// The keychain's native addon (@napi-rs/keyring) for the single executable. A process can load a
// native addon only from a file, so the executable carries the addon as an asset and writes it, once,
// to a private directory of the user (XDG_CACHE_HOME or ~/.cache, then appraisal-cli/native/, mode
// 0700, owned by the user), named by its SHA-256; before every load the file is read and its digest
// compared with the asset's, so a changed file is replaced, never loaded. When it cannot load (no
// addon for this platform, a noexec home), the keychain is "not available" and auth login says so,
// naming --insecure-storage and APPRAISAL_API_KEY (core/credentials/keychain.ts).
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { getAsset } from 'node:sea';

/** The asset's name (scripts/package-sea.mjs). */
export const KEYRING_ASSET = 'keyring.node';

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

function privateDirectory(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  const dir = join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'appraisal-cli', 'native');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
  if (!stat.isDirectory() || !mine || (stat.mode & 0o022) !== 0) throw new Error(`${dir} is not a private directory of this user`);
  return dir;
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
  const dir = privateDirectory();
  const file = join(dir, `keyring-${digest.slice(0, 16)}.node`);
  let verified = false;
  try {
    verified = sha256(readFileSync(file)) === digest;
  } catch {
    // Not written yet.
  }
  if (!verified) {
    const temp = join(dir, `.keyring-${process.pid}-${Date.now()}.tmp`);
    writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  }
  const module = { exports: {} as unknown };
  process.dlopen(module, file);
  addon = module.exports;
  return addon;
}
