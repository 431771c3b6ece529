// A build from the same commit gives the same bytes wherever it runs (issue 37 §5). The one packaged
// file that depended on where and when the build ran was the V8 code cache of the command bundle:
// scripts/code-cache-run.mjs says why and how it is now the same. Here the bundle the global setup
// built (dist/, in this checkout) gets its cache written again, the way the build writes it, in two
// other directories named differently and of different lengths: the three caches are the same bytes.
// (The other packaged files are esbuild's output for the same sources, and the build date is
// SOURCE_DATE_EPOCH when set.)
import type { SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { writeCodeCache as writeCodeCacheUntyped } from '../../scripts/code-cache-run.mjs';
import { DIST } from '../helpers/spawn.js';
import { tempDir } from '../helpers/temp.js';

const writeCodeCache = writeCodeCacheUntyped as (dir: string, mainFile: string) => Promise<SpawnSyncReturns<Buffer>>;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the npm package is reproducible', () => {
  it("the V8 code caches (the command bundle's, ajv's, DuckDB's) are the same bytes when written in other directories", async () => {
    const dist = DIST;
    const mainFile = readFileSync(join(dist, '.build-stamp'), 'utf8').split('\n')[1]!;
    const built = sha256(join(dist, `${mainFile}.cache`));
    for (const dir of [tempDir('appraisal-cache-a-'), join(tempDir('appraisal-cache-elsewhere-'), 'a', 'longer', 'path')]) {
      mkdirSync(dir, { recursive: true });
      cpSync(join(dist, mainFile), join(dir, mainFile));
      cpSync(join(dist, 'vendor'), join(dir, 'vendor'), { recursive: true });
      const written = await writeCodeCache(dir, mainFile);
      expect(written.status, String(written.stderr)).toBe(0);
      expect(sha256(join(dir, `${mainFile}.cache`)), dir).toBe(built);
      for (const vendor of ['ajv', 'duckdb'])
        expect(sha256(join(dir, 'vendor', `${vendor}.cjs.cache`)), `${dir} ${vendor}`).toBe(
          sha256(join(dist, 'vendor', `${vendor}.cjs.cache`)),
        );
    }
  }, 60_000);
});
