// A collection listed per parent (contacts of every client), read for export and sync: every parent's
// list in parent order, a parent removed mid-read reported (not judged), sync keeping one row per id.
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../../src/core/errors.js';
import { RESOURCES } from '../../../../src/core/resources.js';
import { parentLists, type ParentList } from '../../../../src/commands/shared/child-lists.js';
import { familyRecords } from '../../../../src/commands/sync/source.js';
import { apiContext } from '../fake-api.js';

const CLIENTS = ['c1', 'c2', 'c3'].map((id) => ({ id }));
const SHARED = { id: 'k-shared', firstName: 'Dana' };

/** Clients c1..c3; c2 was removed after the ids were read; c1 and c3 both list the shared contact. */
function service() {
  return apiContext(
    {
      paginate: (path) => {
        if (path === '/api/clients') return CLIENTS;
        if (path === '/api/clients/c2/contacts')
          throw new NotFoundError('client c2 not found', { status: 404, method: 'GET', path, requestId: undefined });
        if (path === '/api/clients/c1/contacts') return [{ id: 'k1' }, SHARED];
        if (path === '/api/clients/c3/contacts') return [SHARED, { id: 'k3' }];
        throw new Error(`unexpected list ${path}`);
      },
    },
    { globals: { concurrency: 2 } },
  );
}

describe('parentLists', () => {
  it("hands on every parent's list in parent order, the removed parent marked and empty", async () => {
    const fake = service();
    const lists: ParentList[] = [];
    for await (const list of parentLists(fake.ctx, RESOURCES.contacts, { updatedSince: '2026-01-01T00:00:00Z' })) lists.push(list);
    expect(lists.map((list) => [list.parentId, list.records.map((record) => record.id), list.total, list.removed?.status])).toEqual([
      ['c1', ['k1', 'k-shared'], 2, undefined],
      ['c2', [], 0, 404],
      ['c3', ['k-shared', 'k3'], 2, undefined],
    ]);
    // The parents' collection once, then each parent's list with the caller's query.
    expect(fake.calls[0]).toEqual({ method: 'PAGINATE', path: '/api/clients', query: undefined });
    expect(fake.calls.slice(1).map((call) => call.query)).toEqual(Array(3).fill({ updatedSince: '2026-01-01T00:00:00Z' }));
  });

  it('sync keeps a contact listed under two clients once, and a removed client has none; the count read after each client', async () => {
    const ids: string[] = [];
    const counts: Array<[number, number | undefined]> = [];
    for await (const record of familyRecords(service().ctx, RESOURCES.contacts, undefined, (read, total) => counts.push([read, total])))
      ids.push(record.id);
    expect(ids).toEqual(['k1', 'k-shared', 'k3']);
    expect(counts).toEqual([
      [2, undefined],
      [2, undefined],
      [3, undefined],
    ]);
  });

  it('fails with the error of a list that fails otherwise', async () => {
    const fake = apiContext({
      paginate: (path) => {
        if (path === '/api/clients') return CLIENTS;
        throw new Error(`service down at ${path}`);
      },
    });
    await expect(async () => {
      for await (const list of parentLists(fake.ctx, RESOURCES.contacts, {})) void list;
    }).rejects.toThrow('service down at /api/clients/c1/contacts');
  });
});
