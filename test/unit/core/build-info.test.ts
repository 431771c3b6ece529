// How `appraisal version` tells the install kinds apart, and the text it prints.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildInfo, installKind } from '../../../src/core/build-info.js';
import { versionReport } from '../../../src/commands/version/report.js';
import { tempDir } from '../../helpers/temp.js';

const bundleIn = (root: string): string => {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const file = join(root, 'dist', 'main-ABC.cjs');
  writeFileSync(file, '');
  return pathToFileURL(file).href;
};

describe('installKind', () => {
  it('the executable, whatever the path', () => {
    expect(installKind(bundleIn(tempDir('kind-')), true)).toBe('executable');
  });
  it('a bundle under node_modules is the npm package', () => {
    expect(installKind(bundleIn(join(tempDir('kind-'), 'lib', 'node_modules', 'appraisal-cli')), false)).toBe('npm package');
  });
  it('a bundle in a git checkout is a clone; without .git it is an unpacked package', () => {
    const clone = tempDir('kind-');
    mkdirSync(join(clone, '.git'));
    expect(installKind(bundleIn(clone), false)).toBe('clone');
    expect(installKind(bundleIn(tempDir('kind-')), false)).toBe('npm package');
  });
  it('the sources (tests) are neither', () => {
    expect(installKind(pathToFileURL(join(tempDir('kind-'), 'src', 'core', 'build-info.ts')).href, false)).toBe('sources');
  });
});

describe('versionReport', () => {
  it('one aligned `name: value` line per field, in a fixed order', () => {
    expect(
      versionReport({
        version: '1.2.3',
        commit: 'abc',
        buildDate: '2026-01-01T00:00:00.000Z',
        node: 'v20.20.2',
        platform: 'linux',
        arch: 'x64',
        install: 'npm package',
      }),
    ).toBe(
      'version:  1.2.3\ncommit:   abc\nbuilt:    2026-01-01T00:00:00.000Z\nnode:     v20.20.2\nplatform: linux-x64\ninstall:  npm package\n',
    );
  });
  it('from the sources (not built) it says so instead of inventing a commit', () => {
    expect(buildInfo('0.0.0-dev')).toMatchObject({ commit: 'unknown (not built)', node: process.version, install: 'sources' });
  });
});
