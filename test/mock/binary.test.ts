// `appraisal mock` as a user runs it: the eval-able lines, the curl-equivalent request with the
// printed CA, the read-only/revoked key checks and flags, in process. The mock stopped by Ctrl-C as a
// process of its own (a signal is what is tested) is mock-recipe.test.ts's.
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, start } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 30, seed: 4 });
});
afterAll(async () => {
  await mock?.stop();
});

/** What `curl --cacert $APPRAISAL_CA_FILE -H "x-api-key: …" URL` does, with Node's TLS client. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely and asserted on
function curl(method: string, url: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        ca: [...rootCertificates, readFileSync(mock.caFile!, 'utf8')],
        headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('appraisal mock', () => {
  it('prints the base URL, the CA file and the admin key, and serves the envelope over HTTPS', async () => {
    expect(mock.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(mock.caFile!)).toBe(true);
    expect(mock.adminKey).toMatch(/^apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    const reply = await curl('GET', `${mock.baseUrl}/api/properties?page=2&limit=10`, mock.adminKey);
    expect(reply.status).toBe(200);
    expect(reply.json.pagination).toEqual({ page: 2, limit: 10, total: 30, pages: 3 });
    expect(reply.json.items).toHaveLength(10);
  });

  it('gives a read-only key made with POST /api/keys a 403 on POST /api/properties, and a revoked key 401', async () => {
    const created = await curl('POST', `${mock.baseUrl}/api/keys`, mock.adminKey, { name: 'read only', scopes: ['api:read'] });
    expect(created.status).toBe(201);
    const readOnly = created.json as { id: string; secret: string };
    const denied = await curl('POST', `${mock.baseUrl}/api/properties`, readOnly.secret, {
      name: 'x',
      address: { line1: '1 A St', city: 'Boise', region: 'ID', postalCode: '83702', country: 'US' },
      propertyType: 'land',
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error.message).toContain('api:write');
    expect((await curl('DELETE', `${mock.baseUrl}/api/keys/${readOnly.id}`, mock.adminKey)).status).toBe(204);
    const revoked = await curl('GET', `${mock.baseUrl}/api/properties`, readOnly.secret);
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.code).toBe('API_KEY_REVOKED');
  });

  it('prints nothing on stdout but the eval lines, and honours --http, --admin-key and --log', async () => {
    const adminKey = 'apk_Test0001_abcdefghijklmnopqrstuvwxyzABCDEF';
    const mockRun = start(['mock', '--http', '--port', '0', '--records', '3', '--admin-key', adminKey, '--log']);
    try {
      await expect.poll(() => mockRun.stdout().split('\n').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
      const lines = mockRun.stdout().trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^APPRAISAL_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[1]).toBe(`APPRAISAL_API_KEY=${adminKey}`);
      const baseUrl = lines[0]!.split('=')[1]!;
      const reply = await fetch(`${baseUrl}/api/keys/current`, { headers: { 'x-api-key': adminKey } });
      expect(reply.status).toBe(200);
      await expect.poll(() => mockRun.stderr(), { timeout: 5000 }).toMatch(/GET \/api\/keys\/current 200 \d+ms apk_Test0001 req_/);
      expect(mockRun.stderr()).not.toContain(adminKey);
    } finally {
      mockRun.interrupt();
    }
    const { stdout } = await mockRun.result;
    expect(stdout.trim().split('\n')).toHaveLength(2);
  });

  it('refuses bad flags with exit 2 and a used port with a hint', async () => {
    const bad = await run(['mock', '--port', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port must be a whole number');
    expect(bad.stdout).toBe('');
    const badKey = await run(['mock', '--port', '0', '--admin-key', 'secret']);
    expect(badKey.code).toBe(2);
    const port = Number(new URL(mock.baseUrl).port);
    const busy = await run(['mock', '--port', String(port)]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('already in use');
    // Said once, in the hint (the message had its own "(try --port 0 …)" before it).
    expect(busy.stderr.match(/--port 0/g)).toHaveLength(1);
    expect(busy.stdout).toBe('');
  });
});
