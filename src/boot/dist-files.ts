// Where the entry (dist/cli.cjs) reads the text files the build wrote beside it (dist/help.json).
// The single executable is built with sea-files.ts in this module's place (scripts/entry-build.mjs),
// which reads the same files from the executable's assets: the one seam between the two. Only
// node:fs here: the entry loads it at every start (the command bundle is loaded elsewhere, lazily).
import { readFileSync } from 'node:fs';

/** A text file the build wrote into dist/ (throws when it is not there). */
export function readDistText(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}
