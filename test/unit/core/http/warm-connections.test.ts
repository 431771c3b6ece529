// Connections opened ahead of a paged read's requests (src/core/http/warm-connections.ts): the
// pages sent together after page 1 use them instead of each connecting then, and none is left open.
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../helpers/wait.js';
import { closedAfterEach, json } from './helpers.js';

const { serve, client } = closedAfterEach();

/**
 * A collection of `pages` pages of 2 records; the server's sockets, and each request's socket.
 * `beforePage1`: awaited before page 1 is answered.
 */
async function collection(pages: number, beforePage1?: (sockets: Set<Socket>) => Promise<void>) {
  const sockets = new Set<Socket>();
  const served: Array<{ page: number; socket: Socket }> = [];
  const server = await serve(async (req, res) => {
    const page = Number(new URL(req.url ?? '', 'http://x').searchParams.get('page'));
    served.push({ page, socket: req.socket });
    if (page === 1) await beforePage1?.(sockets);
    const items = [{ id: `p${page}a` }, { id: `p${page}b` }];
    json(res, 200, { items, pagination: { page, limit: 2, total: pages * 2, pages } });
  });
  server.server.on('connection', (socket: Socket) => sockets.add(socket));
  return { server, sockets, served };
}

describe('connections opened ahead of paging', () => {
  it('opens them while page 1 travels, and the later pages go out on them', async () => {
    // Page 1 is answered only once page 1's connection and the 4 opened ahead exist: undici on its
    // own would open the later pages' connections only after that answer.
    let atPage1: Set<Socket> | undefined;
    const { server, served } = await collection(5, async (sockets) => {
      await waitFor(() => sockets.size >= 1 + 4, 'the connections opened ahead', 5_000);
      atPage1 = new Set(sockets);
    });
    const { client: api } = client(server.url);
    const ids: string[] = [];
    for await (const record of api.paginate('/api/things', { concurrency: 4, pageSize: 2, connectAhead: true })) ids.push(record.id);
    expect(ids).toHaveLength(10);
    expect(served.map((s) => s.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    // Pages 2-5, sent together after page 1's answer, went out on connections already open.
    for (const { page, socket } of served) if (page > 1) expect(atPage1?.has(socket)).toBe(true);
  });

  it('closes those a 1-page collection never used when the client closes', async () => {
    const { server, sockets, served } = await collection(1);
    const { client: api } = client(server.url);
    const ids: string[] = [];
    for await (const record of api.paginate('/api/things', { concurrency: 4, pageSize: 2, connectAhead: true })) ids.push(record.id);
    expect(ids).toEqual(['p1a', 'p1b']);
    expect(served).toHaveLength(1);
    // Opened ahead (page 1's own connection plus up to 4): they exist, then the close ends them all.
    await waitFor(() => sockets.size > 1, 'the connections opened ahead');
    await api.close();
    await waitFor(() => [...sockets].every((socket) => socket.destroyed), 'every connection closed');
  });

  it('opens none unless asked, at concurrency 1, or for a read the first page already satisfies', async () => {
    // undici itself may keep one spare connection besides the one in use: 2 at most, where 4 opened
    // ahead would make 5.
    const sequential = await collection(3);
    const { client: one } = client(sequential.server.url);
    for await (const record of one.paginate('/api/things', { concurrency: 1, pageSize: 2, connectAhead: true }))
      expect(record.id).toBeTruthy();
    expect(sequential.sockets.size).toBeLessThanOrEqual(2);
    const capped = await collection(3);
    const { client: few } = client(capped.server.url);
    const taken: string[] = [];
    for await (const record of few.paginate('/api/things', { concurrency: 4, pageSize: 2, maxItems: 2, connectAhead: true }))
      taken.push(record.id);
    expect(taken).toEqual(['p1a', 'p1b']);
    expect(capped.sockets.size).toBe(1);
    // Not asked (a watch's poll, an incremental sync): a 1-page read opens its one connection only.
    const polled = await collection(1);
    const { client: poller } = client(polled.server.url);
    for await (const record of poller.paginate('/api/things', { concurrency: 4, pageSize: 2 })) expect(record.id).toBeTruthy();
    expect(polled.sockets.size).toBe(1);
  });

  it('opens one connection when the client is made, if asked, and the first request goes out on it', async () => {
    const { server, sockets, served } = await collection(1);
    const { client: api } = client(server.url, { connectAhead: true });
    await waitFor(() => sockets.size === 1, 'the connection opened ahead');
    const [ahead] = sockets;
    expect(served).toHaveLength(0);
    await api.get('/api/things/x');
    expect(served[0]?.socket).toBe(ahead);
  });
});
