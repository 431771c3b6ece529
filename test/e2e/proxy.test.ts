// Issue 14 item 1: no credential over plain HTTP through a proxy. With HTTP_PROXY / HTTPS_PROXY set,
// a loopback target (the plain-http exception) is reached directly, never through the proxy; other
// targets still go through it. Proven with a real logging proxy (tinyproxy) and the hostile server's
// request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { credentialOf, page, record } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';
import { startTinyproxy, type Tinyproxy } from '../hostile/tinyproxy.js';

const KEY = 'apk_Proxied1_ProxyS3cretProxyS3cretProxyS3cr42';

let server: HostileServer;
let proxy: Tinyproxy;

beforeAll(async () => {
  [server, proxy] = await Promise.all([startHostile(), startTinyproxy()]);
  server
    .on('GET', '/api/properties', page([{ id: '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', name: 'direct' }]))
    .on('GET', '/api/keys/current', record({ id: 'aaaaaaaa-5d4a-4c3b-9a1f-0e6d7c8b9a10', prefix: 'apk_Proxied1', scopes: ['api:read'] }));
});
afterAll(async () => {
  await Promise.all([server?.close(), proxy?.stop()]);
});

function proxyEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return isolatedEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url, ...extra });
}

describe('item 1: loopback targets are never proxied', () => {
  for (const host of ['127.0.0.1', 'localhost']) {
    it(`http://${host} with HTTP_PROXY set: the key goes straight to this machine, the proxy sees nothing`, async () => {
      const before = server.requests.length;
      const base = `http://${host}:${server.port}`;
      const result = await run(['props', 'list', '-o', 'json', '--base-url', base], { env: proxyEnv({ APPRAISAL_API_KEY: KEY }) });
      expect(result.code, result.stderr).toBe(0);
      expect(exitProblems(result)).toEqual([]);
      expect(JSON.parse(result.stdout)).toEqual([{ id: '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', name: 'direct' }]);
      const arrived = server.requests.slice(before);
      expect(arrived.length).toBeGreaterThan(0);
      // Straight from the CLI: no proxy headers on anything; the data request carried the key.
      expect(arrived.every((req) => !('via' in req.headers) && !('x-forwarded-for' in req.headers))).toBe(true);
      expect(arrived.filter((req) => req.path.startsWith('/api/properties')).map(credentialOf)).toContain(KEY);
      expect(proxy.log()).not.toContain(String(server.port));
      expect(proxy.log()).not.toContain(KEY.slice(13));
    });
  }

  it('a profile stored for http://127.0.0.1:PORT is used directly too', async () => {
    const env = proxyEnv();
    const base = `http://127.0.0.1:${server.port}`;
    const login = await run(['auth', 'login', '--profile', 'local', '--base-url', base, '--with-key', '--insecure-storage'], {
      env,
      stdin: `${KEY}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    const before = server.requests.length;
    const result = await run(['props', 'list', '-o', 'json', '--profile', 'local'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(before);
    expect(proxy.log()).not.toContain(String(server.port));
    expect(result.stderr + login.stderr).not.toContain(KEY.slice(13));
  });

  it('any other target still goes through the proxy (which logs it): the proxy is really in use', async () => {
    const result = await run(
      ['props', 'list', '-o', 'json', '--base-url', 'https://appraisal-proxy-test.invalid', '--retries', '0', '--timeout', '15'],
      {
        env: proxyEnv({ APPRAISAL_API_KEY: KEY }),
      },
    );
    expect(result.code, result.stderr).toBe(3);
    expect(exitProblems(result)).toEqual([]);
    expect(proxy.log()).toContain('appraisal-proxy-test.invalid');
    expect(result.stderr).not.toContain(KEY.slice(13));
  });
});
