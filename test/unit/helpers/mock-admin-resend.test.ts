// The test plumbing's own rule (test/helpers/mock-admin.ts `call`): a request to an admin route reset
// before any answer on a kept-alive connection the agent reused is sent once more, whatever its
// method (the mock closes idle connections after 5 s, and a request written as it closes is never
// read); a POST reset on a fresh connection is not, since it may have been read.
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../helpers/mock-admin.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server that resets the connection, without an answer, for the requests numbered in `resets` (1-based). */
async function serverResetting(resets: readonly number[]) {
  const bodies: string[] = [];
  let seen = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const number = ++seen;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (resets.includes(number)) return req.socket.destroy();
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, adminKey: 'apk_admin', caFile: undefined };
  return { target, bodies };
}

describe("the mock admin's resend", () => {
  it('sends a POST once more when the reused connection it went on was reset before any answer', async () => {
    const { target, bodies } = await serverResetting([2]);
    const agent = new Agent({ keepAlive: true });
    try {
      await call(target, 'POST', '/__mock/keys', { body: { n: 1 }, agent });
      const reply = await call(target, 'POST', '/__mock/keys', { body: { n: 2 }, agent });
      expect(reply.status).toBe(200);
      expect(bodies).toEqual(['{"n":1}', '{"n":2}']);
    } finally {
      agent.destroy();
    }
  });

  it('does not send again a POST reset on a fresh connection', async () => {
    const { target, bodies } = await serverResetting([1]);
    await expect(call(target, 'POST', '/__mock/keys', { body: { n: 1 } })).rejects.toThrow(/POST \/__mock\/keys failed: ECONNRESET/);
    expect(bodies).toEqual([]);
  });
});
