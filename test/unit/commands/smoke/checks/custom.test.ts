// A checks file's checks resolved against a description (the repository's openapi.json): any
// operationId, METHOD + template or concrete path; params onto the published parameters; writes
// only with allowWrite; every misfit refused naming the check (exit 2). YAML files read lazily.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadChecksFile, type CheckSpec } from '../../../../../src/commands/smoke/checks/file.js';
import { resolveChecks } from '../../../../../src/commands/smoke/checks/custom.js';
import { BUNDLED_SOURCE, bundledDescription, type LoadedDescription } from '../../../../../src/core/description/load.js';
import { UsageError } from '../../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../../src/core/exit-codes.js';
import { fakeContext } from '../../../../helpers/fake-context.js';
import { tempDir } from '../../../../helpers/temp.js';

async function description(): Promise<LoadedDescription> {
  return {
    contract: await bundledDescription(),
    source: BUNDLED_SOURCE,
    kind: 'bundled',
    fromCache: false,
    fetchedAt: undefined,
    checkedAt: undefined,
    etag: undefined,
  };
}

const ID = '00000000-0000-4000-8000-000000000000';

async function resolve(...checks: CheckSpec[]) {
  return resolveChecks({ raw: 'smoke.json', checks }, await description());
}

async function refusal(check: CheckSpec): Promise<string> {
  const error = await resolve(check).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  expect(exitCodeFor(error)).toBe(2);
  return (error as Error).message;
}

describe('--checks operations against the description', () => {
  it('takes any operationId, a METHOD + template, or a concrete path, and maps params onto path and query', async () => {
    const { checks, bound } = await resolve(
      { name: 'key', operation: 'getCurrentApiKey' },
      {
        name: 'offices',
        operation: 'listProperties',
        params: { propertyType: 'Office', updatedSince: '2026-01-01T00:00:00Z' },
        minItems: 1,
      },
      { name: 'by template', operation: 'GET /api/properties/{propertyId}', params: { id: ID } },
      { name: 'concrete', operation: 'get /api/clients/abc/contacts', params: { updatedSince: '2026-01-01T00:00:00Z' } },
      { name: 'gone', operation: 'DELETE /api/properties/{id}', params: { id: ID }, allowWrite: true, expectStatus: 404 },
    );
    const requests = checks.map((check) => check.request!(undefined as never));
    expect(requests).toEqual([
      { method: 'GET', path: '/api/keys/current' },
      { method: 'GET', path: '/api/properties?propertyType=Office&updatedSince=2026-01-01T00%3A00%3A00Z' },
      { method: 'GET', path: `/api/properties/${ID}` },
      { method: 'GET', path: '/api/clients/abc/contacts?updatedSince=2026-01-01T00%3A00%3A00Z' },
      { method: 'DELETE', path: `/api/properties/${ID}` },
    ]);
    expect(bound.map((operation) => operation.operationId)).toEqual([
      'getCurrentApiKey',
      'listProperties',
      'getProperty',
      'listClientContacts',
      'deleteProperty',
    ]);
  });

  it('refuses, naming the check, what the description does not publish or the operation does not take', async () => {
    expect(await refusal({ name: 'widgets', operation: 'listWidgets' })).toBe(
      `--checks smoke.json: checks[0] "widgets".operation: the service publishes no operation "listWidgets" (description: ${BUNDLED_SOURCE})`,
    );
    expect(await refusal({ name: 'nowhere', operation: 'GET /api/widgets' })).toContain(
      'checks[0] "nowhere".operation: the service publishes no GET /api/widgets',
    );
    expect(await refusal({ name: 'wrong verb', operation: 'PUT /api/properties' })).toContain(
      'publishes /api/properties for GET, POST, not PUT',
    );
    expect(await refusal({ name: 'colour', operation: 'listProperties', params: { colour: 'red' } })).toBe(
      '--checks smoke.json: checks[0] "colour".params: "colour" is not a parameter of listProperties (GET /api/properties)',
    );
    expect(await refusal({ name: 'no id', operation: 'getProperty' })).toBe(
      '--checks smoke.json: checks[0] "no id".params: getProperty (GET /api/properties/{id}) needs "id" for its path',
    );
    expect(await refusal({ name: 'twice', operation: `GET /api/properties/${ID}`, params: { id: ID } })).toContain(
      `the path /api/properties/${ID} already gives {id}`,
    );
    expect(await refusal({ name: 'query', operation: 'GET /api/properties?page=2' })).toContain('put query parameters in "params"');
  });

  it('reads only, unless a check says allowWrite; a body only with a write; minItems only on a list', async () => {
    const write = await refusal({ name: 'create', operation: 'createProperty', body: { name: 'x' } });
    expect(write).toBe(
      '--checks smoke.json: checks[0] "create".operation: createProperty (POST /api/properties) is a POST, which may change data; smoke checks only read',
    );
    expect(await refusal({ name: 'body', operation: 'listProperties', body: {} })).toContain('is a GET, which takes no body');
    expect(await refusal({ name: 'count', operation: 'getProperty', params: { id: ID }, minItems: 1 })).toContain(
      'minItems: counts the items of a list; getProperty (GET /api/properties/{id}) answers one record',
    );
    const { checks } = await resolve({
      name: 'create',
      operation: 'createProperty',
      allowWrite: true,
      body: { name: 'x' },
      expectStatus: 422,
    });
    expect(checks[0]!.request!(undefined as never)).toEqual({ method: 'POST', path: '/api/properties', body: { name: 'x' } });
  });
});

describe('--checks files', () => {
  const write = (name: string, text: string) => {
    const dir = tempDir('smoke-checks-');
    writeFileSync(join(dir, name), text);
    return fakeContext({ cwd: dir }).ctx;
  };

  it('reads YAML when the name ends in .yaml or .yml, with the same strict keys', async () => {
    const yaml = [
      '# the team checks',
      'checks:',
      '  - name: offices exist',
      '    operation: listProperties',
      '    params: {propertyType: Office}',
      '    minItems: 1',
      '    maxLatency: 500ms',
      '',
    ].join('\n');
    const file = await loadChecksFile(write('smoke.yaml', yaml), 'smoke.yaml');
    expect(file.checks).toEqual([
      {
        name: 'offices exist',
        operation: 'listProperties',
        params: { propertyType: 'Office' },
        minItems: 1,
        maxLatency: '500ms',
        maxLatencyMs: 500,
      },
    ]);
    await expect(
      loadChecksFile(write('smoke.yml', 'checks:\n  - name: x\n    operation: listProperties\n    expectStatuss: 200\n'), 'smoke.yml'),
    ).rejects.toThrow('--checks smoke.yml: unknown key "expectStatuss" at checks[0]');
    await expect(loadChecksFile(write('smoke.yml', 'checks: [\n'), 'smoke.yml')).rejects.toThrow(
      /^--checks smoke\.yml is not valid YAML: .*line 2, column \d+$/,
    );
    // A .json file is JSON, even when it would be valid YAML.
    await expect(loadChecksFile(write('smoke.json', 'checks: []\n'), 'smoke.json')).rejects.toThrow(
      /^--checks smoke\.json is not valid JSON/,
    );
  });

  it('checks what needs no service when the file is read: budgets, duplicate names, minItems with a failure status', async () => {
    const json = (checks: unknown[]) => write('smoke.json', JSON.stringify({ checks }));
    await expect(loadChecksFile(json([{ name: 'a', operation: 'x', maxLatency: 'soon' }]), 'smoke.json')).rejects.toThrow(
      'checks[0].maxLatency must be a duration',
    );
    await expect(
      loadChecksFile(
        json([
          { name: 'a', operation: 'x' },
          { name: 'a', operation: 'y' },
        ]),
        'smoke.json',
      ),
    ).rejects.toThrow('checks[1]: the name "a" is used twice');
    await expect(loadChecksFile(json([{ name: 'a', operation: 'x', minItems: 1, expectStatus: 404 }]), 'smoke.json')).rejects.toThrow(
      'cannot go with expectStatus 404',
    );
  });
});
