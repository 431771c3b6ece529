import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigStore } from '../../../../src/core/config.js';
import { ContractError, NetworkError, NotFoundError, UsageError } from '../../../../src/core/errors.js';
import { cacheFileName, loadPublishedContract } from '../../../../src/commands/api/load-contract.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { Reply, routeApi, type Handler } from './request-fake.js';

const DOCUMENT = { openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: { '/api/properties': { get: { operationId: 'list' } } } };

function setup(handler: Handler, dir = mkdtempSync(join(tmpdir(), 'openapi-cache-'))) {
  const { api, calls } = routeApi({ 'GET /api/openapi.json': handler });
  const config = { dir, path: join(dir, 'config.json') } as ConfigStore;
  const fake = fakeContext({ api, config, now: () => new Date('2026-03-01T00:00:00Z') });
  return { ...fake, calls, dir };
}

describe('loadPublishedContract from the service', () => {
  it('fetches the document and caches it with its validators, mode 0600', async () => {
    const { ctx, calls, dir } = setup(() => new Reply(200, DOCUMENT, { etag: '"v1"', 'last-modified': 'Sun, 01 Mar 2026 00:00:00 GMT' }));
    const loaded = await loadPublishedContract(ctx);
    expect(loaded.fromCache).toBe(false);
    expect(loaded.source).toBe('https://api.test/api/openapi.json');
    expect(loaded.contract.operations).toHaveLength(1);
    expect(calls[0]!.headers).toEqual({});
    const file = join(dir, 'cache', cacheFileName('https://api.test'));
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    expect(cached).toMatchObject({ baseUrl: 'https://api.test', etag: '"v1"', lastModified: 'Sun, 01 Mar 2026 00:00:00 GMT' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'cache'))).toEqual([cacheFileName('https://api.test')]);
  });

  it('revalidates with If-None-Match / If-Modified-Since and uses the cache on 304', async () => {
    const first = setup(() => new Reply(200, DOCUMENT, { etag: '"v1"', 'last-modified': 'Sun, 01 Mar 2026 00:00:00 GMT' }));
    await loadPublishedContract(first.ctx);
    const second = setup(() => new Reply(304, undefined), first.dir);
    const loaded = await loadPublishedContract(second.ctx);
    expect(loaded.fromCache).toBe(true);
    expect(loaded.contract.operations[0]!.operationId).toBe('list');
    expect(second.calls[0]!.headers).toEqual({ 'if-none-match': '"v1"', 'if-modified-since': 'Sun, 01 Mar 2026 00:00:00 GMT' });
  });

  it('also takes a 304 reported as an error by the client', async () => {
    const first = setup(() => new Reply(200, DOCUMENT, { etag: '"v1"' }));
    await loadPublishedContract(first.ctx);
    const second = setup(() => {
      throw new ContractError('GET /api/openapi.json: the service answered 304 Not Modified; redirects are not followed');
    }, first.dir);
    expect((await loadPublishedContract(second.ctx)).fromCache).toBe(true);
  });

  it('replaces the cache when the document changed', async () => {
    const first = setup(() => new Reply(200, DOCUMENT, { etag: '"v1"' }));
    await loadPublishedContract(first.ctx);
    const changed = { ...DOCUMENT, paths: { ...DOCUMENT.paths, '/api/clients': { get: {} } } };
    const second = setup(() => new Reply(200, changed, { etag: '"v2"' }), first.dir);
    expect((await loadPublishedContract(second.ctx)).contract.operations).toHaveLength(2);
    const file = join(first.dir, 'cache', cacheFileName('https://api.test'));
    expect(JSON.parse(readFileSync(file, 'utf8')).etag).toBe('"v2"');
  });

  it('falls back to the cached copy when the service cannot be asked, but not when it has none', async () => {
    const first = setup(() => new Reply(200, DOCUMENT, { etag: '"v1"' }));
    await loadPublishedContract(first.ctx);
    const offline = setup(() => {
      throw new NetworkError('connection refused');
    }, first.dir);
    expect((await loadPublishedContract(offline.ctx)).fromCache).toBe(true);
    const empty = setup(() => {
      throw new NetworkError('connection refused');
    });
    await expect(loadPublishedContract(empty.ctx)).rejects.toThrow(NetworkError);
    const gone = setup(() => {
      throw new NotFoundError('404', { status: 404, method: 'GET', path: '/api/openapi.json' });
    }, first.dir);
    await expect(loadPublishedContract(gone.ctx)).rejects.toThrow(NotFoundError);
  });

  it('ignores a damaged cache file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-cache-'));
    const cache = join(dir, 'cache');
    const { ensurePrivateDir } = await import('../../../../src/core/config.js');
    ensurePrivateDir(cache);
    writeFileSync(join(cache, cacheFileName('https://api.test')), '{not json');
    const { ctx, calls } = setup(() => new Reply(200, DOCUMENT), dir);
    expect((await loadPublishedContract(ctx)).fromCache).toBe(false);
    expect(calls[0]!.headers).toEqual({});
  });

  it('rejects a body that is not an OpenAPI document', async () => {
    const { ctx } = setup(() => new Reply(200, '<html>'));
    await expect(loadPublishedContract(ctx)).rejects.toThrow(/not a JSON OpenAPI document/);
  });
});

describe('loadPublishedContract --spec', () => {
  it('reads a local file relative to the working directory, and never asks the service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-spec-'));
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(DOCUMENT));
    const { ctx } = fakeContext({ cwd: dir });
    const loaded = await loadPublishedContract(ctx, { spec: 'spec.json' });
    expect(loaded.source).toBe(join(dir, 'spec.json'));
    expect(loaded.contract.operations).toHaveLength(1);
  });

  it('says which file could not be read or parsed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-spec-'));
    writeFileSync(join(dir, 'bad.json'), 'openapi: 3.1.0');
    const { ctx } = fakeContext({ cwd: dir });
    await expect(loadPublishedContract(ctx, { spec: 'missing.json' })).rejects.toThrow(UsageError);
    await expect(loadPublishedContract(ctx, { spec: 'bad.json' })).rejects.toThrow(/--spec bad.json is not a JSON OpenAPI document/);
  });

  it('fetches a URL under the base URL through the API client', async () => {
    const { api, calls } = routeApi({ 'GET /api/v2/openapi.json': () => DOCUMENT });
    const { ctx } = fakeContext({
      api,
      session: { profileName: 't', profile: undefined, baseUrl: 'https://api.test', environment: 'local', caFile: undefined, credential: undefined },
    });
    const loaded = await loadPublishedContract(ctx, { spec: 'https://api.test/api/v2/openapi.json' });
    expect(loaded.contract.operations).toHaveLength(1);
    expect(calls[0]!.path).toBe('/api/v2/openapi.json');
  });
});
