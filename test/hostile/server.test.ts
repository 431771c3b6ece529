// The hostile server itself: routes win in reverse order, the request log is exact, close() ends
// endless answers. Its misbehaviour is what other tests rely on, so it is checked here.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL, ENCODINGS, RAW_CONTROL, echoCredential, serviceError, text } from './answers.js';
import { startHostile, type HostileServer } from './server.js';

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('hostile test server', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostile();
  });
  afterAll(() => server.close());

  it('answers registered routes, later ones first, and logs every request as sent', async () => {
    server.on('GET', '/api/x', text(500, 'old')).on('GET', '/api/x', serviceError(404, { message: `gone${CONTROL.osc52}` }));
    const answer = await get(`${server.url}/api/x?page=2`, { 'x-api-key': 'apk_AAAAAAAA_secret' });
    expect(answer.status).toBe(404);
    // JSON escapes the sequence on the wire; the client that parses it gets the raw bytes.
    expect((JSON.parse(answer.body) as { error: { message: string } }).error.message).toMatch(RAW_CONTROL);
    const logged = server.requests.at(-1)!;
    expect(logged.path).toBe('/api/x?page=2');
    expect(logged.headers['x-api-key']).toBe('apk_AAAAAAAA_secret');
    expect((await get(`${server.url}/nowhere`)).status).toBe(404);
    await server.waitForRequests(2);
  });

  it('echoes the credential back in the encoding asked for', async () => {
    server.on('GET', '/api/echo', echoCredential(401, ENCODINGS.urlEncoded!));
    const answer = await get(`${server.url}/api/echo`, { 'x-api-key': 'apk_AAAAAAAA_s3cret' });
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('apk%5FAAAAAAAA%5Fs3cret');
  });
});
