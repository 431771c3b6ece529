// The single executable's stand-in for dist-files.ts (swapped in by scripts/entry-build.mjs): the
// build's text files (help.json) are assets inside the executable (Node's single executable
// applications, `assets` in sea-config.json), so it runs copied alone into an empty directory.
import { getAsset } from 'node:sea';

/** Assets are named as the files are in dist/ (`help.json`, `main-HASH.cjs`, `vendor/mock.cjs`). */
export function readDistText(name: string): string {
  return Buffer.from(getAsset(name)).toString('utf8');
}
