// `spec check` against a description given with --spec (in process, no service): what it reports is
// a real difference from our model, never one of spelling (a set listed in another order), and a
// field whose name is a prose keyword (Contact's `title`) or a query parameter's schema is compared
// like any other.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../../../helpers/env.js';
import { run } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/temp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is edited loosely, as a test's fixture
type Json = Record<string, any>;

function description(change: (document: Json) => void): string {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as Json;
  change(document);
  const file = join(tempDir('spec-check-'), 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

const check = (file: string) => run(['spec', 'check', '--spec', file, '-o', 'json'], { env: isolatedEnv() });

describe('spec check', () => {
  it('reports nothing for the same contract with its required fields and enums listed in another order', async () => {
    const file = description((document) => {
      for (const schema of Object.values(document.components.schemas as Record<string, Json>)) {
        if (Array.isArray(schema.required)) schema.required.reverse();
        for (const property of Object.values((schema.properties ?? {}) as Record<string, Json>))
          if (Array.isArray(property.enum)) property.enum.reverse();
      }
    });
    const result = await check(file);
    expect(result.stderr).toContain(': 36 as modelled, 0 under another path, 0 changed, 0 missing');
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('reports a changed field named like a prose keyword (a contact title)', async () => {
    const file = description((document) => {
      document.components.schemas.Contact.properties.title = { type: 'integer' };
    });
    const result = await check(file);
    const rows = JSON.parse(result.stdout) as { command: string; status: string; changes: string }[];
    expect(rows.find((row) => row.command === 'contacts get')).toMatchObject({ status: 'changed', changes: 'response schema changed' });
    expect(result.code).toBe(0);
  });

  it('reports a query parameter whose schema changed (a filter that lost values)', async () => {
    const file = description((document) => {
      document.components.parameters.propertyType.schema.enum = ['office', 'retail'];
    });
    const result = await check(file);
    const rows = JSON.parse(result.stdout) as { command: string; status: string; changes: string }[];
    expect(rows.find((row) => row.command === 'props list')).toMatchObject({
      status: 'changed',
      changes: 'query parameters changed: propertyType',
    });
  });

  it('counts operations, not their uses: listFiles removed is one missing operation, used by three commands', async () => {
    const file = description((document) => {
      delete document.paths['/api/files'].get;
    });
    const result = await check(file);
    expect(result.stderr).toContain("36 operations used by 46 of this CLI's commands");
    expect(result.stderr).toContain(': 35 as modelled, 0 under another path, 0 changed, 1 missing');
    expect(result.stderr).toContain('error: 3 commands cannot run against this service: files list, export, sync');
    expect(result.code).toBe(12);
  });

  it('a service that cannot be reached (nothing cached) fails the check, exit 3: never the model checked against itself', async () => {
    const result = await run(['spec', 'check', '-o', 'json'], {
      env: isolatedEnv({ APPRAISAL_BASE_URL: 'http://127.0.0.1:1', APPRAISAL_API_KEY: 'apk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' }),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('as modelled');
    expect(result.stderr).toMatch(/^error: .*127\.0\.0\.1:1/m);
  });
});
