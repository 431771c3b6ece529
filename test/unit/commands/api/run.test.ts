import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import apiCommand from '../../../../src/commands/api/index.js';
import { genericView, labelFor } from '../../../../src/commands/api/run.js';
import { recordsIn } from '../../../../src/core/http/envelope.js';
import type { ConfigStore } from '../../../../src/core/config.js';
import type { GlobalOptions } from '../../../../src/core/global-options.js';
import { NetworkError, ServiceUnavailableError, UnpublishedOperationError, UsageError } from '../../../../src/core/errors.js';
import type { Session } from '../../../../src/core/session.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { runNoun } from '../fake-api.js';
import { Reply, routeApi, type Handler } from './request-fake.js';
import { tempDir } from '../../../helpers/temp.js';

const SPEC = {
  openapi: '3.1.0',
  paths: {
    '/api/properties': { get: { operationId: 'listProperties', summary: 'List properties' }, post: { operationId: 'createProperty' } },
    '/api/properties/{id}': { get: { operationId: 'getProperty' }, patch: {}, delete: {} },
    '/api/keys/current': { get: {} },
  },
};

const SESSION: Session = {
  profileName: 'dev',
  profile: undefined,
  baseUrl: 'https://api.test',
  origin: 'https://api.test:443',
  environment: 'local',
  caFile: undefined,
  credential: undefined,
};

function setup(routes: Record<string, Handler>, options: { globals?: Partial<GlobalOptions>; cwd?: string } = {}) {
  const { api, calls } = routeApi({ 'GET /api/openapi.json': () => SPEC, ...routes });
  const dir = tempDir('api-cmd-');
  const config = { dir, path: join(dir, 'config.json') } as ConfigStore;
  const fake = fakeContext({ api, config, session: SESSION, globals: options.globals, cwd: options.cwd ?? dir });
  const run = (...args: string[]) => runNoun(apiCommand, fake.ctx, args);
  return { ...fake, calls, run, dir, requests: () => calls.filter((c) => c.path !== '/api/openapi.json') };
}

describe('appraisal api (in-process)', () => {
  it('GETs a published path and prints the body as pretty JSON, with -f as query parameters', async () => {
    const t = setup({ 'GET /api/properties': () => ({ items: [{ id: 'a' }], pagination: { page: 1, limit: 5, total: 1, pages: 1 } }) });
    await t.run('get', '/api/properties?limit=5', '-f', 'q=harbor');
    expect(t.requests()).toEqual([expect.objectContaining({ method: 'GET', path: '/api/properties', query: { limit: '5', q: 'harbor' } })]);
    expect(JSON.parse(t.stdout())).toEqual({ items: [{ id: 'a' }], pagination: { page: 1, limit: 5, total: 1, pages: 1 } });
    expect(t.stdout()).toContain('\n  "items"');
    expect(t.stderr()).toBe('');
  });

  it('POSTs a JSON body built from --data and -f', async () => {
    const t = setup({ 'POST /api/properties': (e) => new Reply(201, { id: 'new', ...(e.body as object) }) });
    await t.run('POST', 'api/properties', '--data', '{"name":"A"}', '-f', 'address.city=Boston', '-F', 'yearBuilt=1998');
    expect(t.requests()[0]!.body).toEqual({ name: 'A', address: { city: 'Boston' }, yearBuilt: 1998 });
    expect(JSON.parse(t.stdout())).toMatchObject({ id: 'new', name: 'A' });
  });

  it('refuses --data on a GET', async () => {
    const t = setup({});
    await expect(t.run('GET', '/api/properties', '--data', '{}')).rejects.toThrow(/--data sends a body/);
    expect(t.calls).toEqual([]);
  });

  it('-i prints the status and response headers first, redacting credential-shaped values', async () => {
    const t = setup({
      'GET /api/keys/current': () =>
        new Reply(
          200,
          { id: 'k' },
          { 'x-request-id': 'req-1', 'content-type': 'application/json', 'set-cookie': 's=1', 'x-echo': 'apk_AbCdEf12_0123456789abcdef' },
        ),
    });
    await t.run('GET', '/api/keys/current', '-i');
    const [head, body] = t.stdout().split('\n\n');
    expect(head!.split('\n')).toEqual([
      'HTTP 200',
      'content-type: application/json',
      'set-cookie: [redacted]',
      'x-echo: apk_AbCdEf12_…',
      'x-request-id: req-1',
    ]);
    expect(JSON.parse(body!)).toEqual({ id: 'k' });
  });

  it('prints nothing for an empty body (HEAD, 204)', async () => {
    const t = setup({ 'HEAD /api/properties': () => new Reply(200, undefined) });
    await t.run('HEAD', '/api/properties');
    expect(t.stdout()).toBe('');
  });

  it('sends -H headers and refuses credential headers before any request', async () => {
    const t = setup({ 'GET /api/properties': () => ({ ok: true }) });
    await t.run('GET', '/api/properties', '-H', 'X-Mock-Fault: none', '-H', 'accept: application/json');
    expect(t.requests()[0]!.headers).toEqual({ 'x-mock-fault': 'none', accept: 'application/json' });
    const refused = setup({});
    await expect(refused.run('GET', '/api/properties', '-H', 'X-API-Key: apk_x')).rejects.toThrow(/credential itself/);
    await expect(refused.run('GET', '/api/properties', '-H', 'authorization: Bearer x')).rejects.toThrow(UsageError);
    expect(refused.calls).toEqual([]);
  });

  it('warns on stderr for an internal path, and still makes the request', async () => {
    const t = setup({ 'GET /api/internal/stats': () => ({ n: 1 }) });
    await t.run('GET', '/api/internal/stats');
    expect(t.stderr()).toContain('warning: internal path: GET /api/internal/stats is not part of the public contract');
    expect(t.requests()).toHaveLength(1);
  });

  it('names the published methods when only the method is wrong', async () => {
    const t = setup({ 'PUT /api/properties/1': () => ({}) });
    await t.run('PUT', '/api/properties/1', '--data', '{"a":1}');
    expect(t.stderr()).toContain('published methods for this path: GET, PATCH, DELETE');
  });

  it('--strict refuses an internal path as unpublished (exit 12) before any request', async () => {
    const t = setup({ 'GET /api/internal/stats': () => ({}) });
    const error = await t.run('GET', '/api/internal/stats', '--strict').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnpublishedOperationError);
    expect((error as Error).message).toBe('refusing GET /api/internal/stats: internal path, not part of the public contract');
    expect(t.requests()).toEqual([]);
  });

  it('--strict allows a published operation', async () => {
    const t = setup({ 'GET /api/properties/abc': () => ({ id: 'abc' }) });
    await t.run('GET', '/api/properties/abc', '--strict');
    expect(JSON.parse(t.stdout())).toEqual({ id: 'abc' });
    expect(t.stderr()).toBe('');
  });

  it("a discovered document that is no OpenAPI description counts as none published: one warning naming it, the check uses the CLI's own model", async () => {
    const t = setup({ 'GET /api/openapi.json': () => new Reply(200, 'not json'), 'GET /api/properties': () => ({ ok: 1 }) });
    await t.run('GET', '/api/properties');
    expect(
      t
        .stderr()
        .match(
          /warning: https:\/\/api\.test\/api\/openapi\.json is not a JSON OpenAPI document; that is not an OpenAPI description, so the service publishes none this CLI can read: using the CLI's own model/g,
        ),
    ).toHaveLength(1);
    expect(t.stderr()).not.toContain('internal path');
    await t.run('GET', '/api/properties', '--strict');
    await expect(t.run('GET', '/api/internal/stats', '--strict')).rejects.toThrow(/refusing GET \/api\/internal\/stats: internal path/);
  });

  it('warns once and goes on when a description named with --spec cannot be loaded; --strict then refuses', async () => {
    const routes = { 'GET /api/spec.json': () => new Reply(200, 'not json'), 'GET /api/properties': () => ({ ok: 1 }) };
    const t = setup(routes, { globals: { spec: 'https://api.test/api/spec.json' } });
    await t.run('GET', '/api/properties');
    expect(
      t
        .stderr()
        .match(/could not load the service description: .*spec\.json is not a JSON OpenAPI document; skipping the public-contract check/g),
    ).toHaveLength(1);
    const strict = setup(routes, { globals: { spec: 'https://api.test/api/spec.json' } });
    await expect(strict.run('GET', '/api/properties', '--strict')).rejects.toThrow(
      /cannot check GET \/api\/properties against the public contract/,
    );
  });

  it('--strict reports a service failure as that failure', async () => {
    const t = setup({
      'GET /api/openapi.json': () => {
        throw new ServiceUnavailableError('503', { status: 503, method: 'GET', path: '/api/openapi.json' });
      },
    });
    await expect(t.run('GET', '/api/properties', '--strict')).rejects.toThrow(ServiceUnavailableError);
  });

  it('does not warn about the document when the network is down: the request reports that', async () => {
    const down = () => {
      throw new NetworkError('connect ECONNREFUSED');
    };
    const t = setup({ 'GET /api/openapi.json': down, 'GET /api/properties': down });
    await expect(t.run('GET', '/api/properties')).rejects.toThrow(NetworkError);
    expect(t.stderr()).toBe('');
  });

  it('--spec PATH checks against a local document instead', async () => {
    const dir = tempDir('api-spec-');
    writeFileSync(join(dir, 'spec.json'), JSON.stringify({ openapi: '3.1.0', paths: { '/api/internal/stats': { get: {} } } }));
    const t = setup({ 'GET /api/internal/stats': () => ({}) }, { globals: { spec: 'spec.json' }, cwd: dir });
    await t.run('GET', '/api/internal/stats', '--strict');
    expect(t.calls.map((c) => c.path)).toEqual(['/api/internal/stats']);
  });

  it('--all pages through the collection with the global paging options and streams records', async () => {
    const records = [
      { id: '1', name: 'A', address: { city: 'X' }, propertyType: 'Office' },
      { id: '2', name: 'B', address: { city: 'Y' }, propertyType: 'Retail' },
      { id: '3', name: 'C', address: { city: 'Z' }, propertyType: 'Land' },
    ];
    const t = setup({ 'GET /api/properties': () => records }, { globals: { output: 'ndjson', maxItems: 2, pageSize: 50 } });
    await t.run('GET', '/api/properties', '--all', '-f', 'propertyType=Office');
    const call = t.requests()[0]!;
    expect(call.query).toEqual({ propertyType: 'Office' });
    expect(call.paginate).toMatchObject({ maxItems: 2, pageSize: 50 });
    expect(
      t
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(['1', '2']);
  });

  it('--all as csv holds every field of the records (nested objects as dotted columns)', async () => {
    const t = setup(
      { 'GET /api/properties': () => [{ id: '1', name: 'A', nested: { x: 1 }, propertyType: 'Office' }] },
      { globals: { output: 'csv' } },
    );
    await t.run('GET', '/api/properties', '--all');
    expect(t.stdout()).toBe('id,name,nested.x,propertyType\r\n1,A,1,Office\r\n');
  });

  it('--all needs GET and a plain collection request', async () => {
    const t = setup({});
    await expect(t.run('POST', '/api/properties', '--all')).rejects.toThrow(/needs GET/);
    await expect(t.run('GET', '/api/properties', '--all', '-i')).rejects.toThrow(/cannot be combined with --all/);
  });

  it('-o csv on a single response renders its records', async () => {
    const t = setup(
      { 'GET /api/properties': () => ({ items: [{ id: '1', name: 'A' }], pagination: { page: 1, limit: 25, total: 1, pages: 1 } }) },
      { globals: { output: 'csv' } },
    );
    await t.run('GET', '/api/properties');
    expect(t.stdout()).toBe('id,name\r\n1,A\r\n');
  });

  it('DELETE asks for confirmation (here: refused without --yes and a terminal)', async () => {
    const t = setup({ 'DELETE /api/properties/1': () => undefined });
    await expect(t.run('DELETE', '/api/properties/1')).rejects.toThrow(/pass --yes/);
    expect(t.requests()).toEqual([]);
    const yes = setup({ 'DELETE /api/properties/1': () => undefined }, { globals: { yes: true } });
    await yes.run('DELETE', '/api/properties/1');
    expect(yes.requests()).toHaveLength(1);
  });

  it('needs METHOD and PATH, and validates them before any request', async () => {
    const t = setup({});
    await expect(t.run('GET')).rejects.toThrow(/needs METHOD and PATH/);
    await expect(t.run('FETCH', '/api/x')).rejects.toThrow(/unknown method/);
    await expect(t.run('GET', 'https://evil.example/api/x')).rejects.toThrow(/not a URL/);
    expect(t.calls).toEqual([]);
  });

  it('--list prints the published operations', async () => {
    const t = setup({}, { globals: { output: 'json' } });
    await t.run('--list');
    expect(JSON.parse(t.stdout())).toEqual([
      { method: 'GET', path: '/api/keys/current', operationId: null, summary: null },
      { method: 'GET', path: '/api/properties', operationId: 'listProperties', summary: 'List properties' },
      { method: 'POST', path: '/api/properties', operationId: 'createProperty', summary: null },
      { method: 'GET', path: '/api/properties/{id}', operationId: 'getProperty', summary: null },
      { method: 'PATCH', path: '/api/properties/{id}', operationId: null, summary: null },
      { method: 'DELETE', path: '/api/properties/{id}', operationId: null, summary: null },
    ]);
    await expect(t.run('--list', 'GET')).rejects.toThrow(/--list takes no METHOD/);
  });

  it('--out writes the body atomically', async () => {
    const out = join(tempDir('api-out-'), 'one.json');
    const t = setup({ 'GET /api/properties/1': () => ({ id: '1' }) }, { globals: { out } });
    await t.run('GET', '/api/properties/1');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ id: '1' });
    expect(t.stdout()).toBe('');
  });
});

describe('helpers', () => {
  it('labelFor names the collection', () => {
    expect(labelFor('/api/properties')).toBe('properties');
    expect(labelFor('/api/assignments/1/properties')).toBe('properties');
    expect(labelFor('/api/x/3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10')).toBe('records');
  });
  it('recordsIn finds records in arrays and both envelopes', () => {
    expect(recordsIn([{ id: 1 }])).toEqual({ list: [{ id: 1 }] });
    expect(recordsIn({ success: true, data: [{ code: 'MAI' }] })).toEqual({ list: [{ code: 'MAI' }] });
    expect(recordsIn({ success: true, data: { id: 'x' } })).toEqual({ one: { id: 'x' } });
    expect(recordsIn([1, 2])).toBeUndefined();
    expect(recordsIn('text')).toBeUndefined();
  });
  it('genericView falls back sensibly', () => {
    expect(genericView('x', undefined)).toEqual({ label: 'x', columns: ['id'] });
    expect(genericView('x', { code: 'MAI', name: 'Member', a: 1, b: 2, c: 3, d: 4, e: 5 }).columns).toEqual([
      'code',
      'name',
      'a',
      'b',
      'c',
      'd',
    ]);
  });
});
