// What package.json promises about the npm package (issue 29): the launcher's Node check matches
// `engines`, only what cannot be bundled is a runtime dependency, and an older Node gets one line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/env.js';

// The launcher alone: it checks the Node version before it loads anything from dist/.
const BIN = join(ROOT, 'bin', 'appraisal.js');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  files: string[];
  license: string;
};

describe('package.json', () => {
  it('engines is the minimum bin/appraisal.js checks', () => {
    const minimum = /var MINIMUM = \[(\d+), (\d+)\];/.exec(readFileSync(BIN, 'utf8'));
    expect(minimum, 'bin/appraisal.js declares MINIMUM').not.toBeNull();
    expect(pkg.engines.node).toBe(`>=${minimum![1]}.${minimum![2]}`);
  });

  it('has two runtime dependencies, the native ones: the keychain binding and DuckDB (everything else is bundled)', () => {
    // DuckDB's engine is a native addon per platform (sync's embedded database, Parquet export): it cannot be bundled.
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@duckdb/node-api', '@napi-rs/keyring']);
  });

  it('is MIT with the licence text shipped', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });
});

describe('an older Node', () => {
  it('gets one clear line and exit 1, not a syntax error', () => {
    // The version Node reports, replaced before the launcher runs (no older Node needed).
    const fake = "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.19.0' } });";
    const run = spawnSync(process.execPath, ['-e', `${fake} process.argv[1] = ${JSON.stringify(BIN)}; require(${JSON.stringify(BIN)});`], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      'error: appraisal-cli needs Node.js 20.18 or newer, this is Node.js 18.19.0 (install a newer Node, or use the single executable, which needs none)',
      '',
    ]);
  });
});
