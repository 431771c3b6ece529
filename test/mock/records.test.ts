// Create, read, update (merge patch), delete for every family; validation (400/404/409/422, never a
// crash); unknown fields kept; updatedAt strictly increasing; linked properties; contacts.
import { describe, expect, it } from 'vitest';
import { call, UNKNOWN_ID, useMock } from '../helpers/mock-admin.js';

const mock = useMock({ records: 30, seed: 2 });

const ADDRESS = { line1: '12 Oak St', city: 'Denver', region: 'CO', postalCode: '80202', country: 'US' };
const PROPERTY = { name: 'Oak Street Duplex', address: ADDRESS, propertyType: 'multi_family', yearBuilt: 1962 };

async function create(path: string, body: unknown) {
  const reply = await call(mock.server, 'POST', path, { body });
  expect(reply.status, reply.text).toBe(201);
  return reply.json();
}

async function firstOf(family: string) {
  return (await call(mock.server, 'GET', `/api/${family}?limit=1`)).json().items[0];
}

describe('properties', () => {
  it('creates (201, id and timestamps set, unknown fields kept), gets, lists at the end, patches, deletes', async () => {
    const created = await create('/api/properties', { ...PROPERTY, id: 'ignored', customField: { nested: true } });
    expect(created).toMatchObject({ ...PROPERTY, customField: { nested: true } });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toBe(created.updatedAt);
    expect((await call(mock.server, 'GET', `/api/properties/${created.id}`)).json()).toEqual(created);

    const list = (await call(mock.server, 'GET', '/api/properties?limit=100')).json();
    expect(list.items.at(-1).id).toBe(created.id);

    const patched = await call(mock.server, 'PATCH', `/api/properties/${created.id}`, {
      body: { name: 'Renamed', address: { line2: 'Unit B' }, yearBuilt: null },
    });
    expect(patched.status).toBe(200);
    const updated = patched.json();
    expect(updated).toMatchObject({ name: 'Renamed', address: { ...ADDRESS, line2: 'Unit B' }, customField: { nested: true } });
    expect(updated.yearBuilt).toBeUndefined();
    expect(updated.createdAt).toBe(created.createdAt);
    expect(updated.updatedAt > created.updatedAt).toBe(true);

    expect((await call(mock.server, 'DELETE', `/api/properties/${created.id}`)).status).toBe(204);
    expect((await call(mock.server, 'GET', `/api/properties/${created.id}`)).status).toBe(404);
    expect((await call(mock.server, 'DELETE', `/api/properties/${created.id}`)).status).toBe(404);
  });

  it('bumps updatedAt strictly, even for updates within the same millisecond, and not for a no-op', async () => {
    const seeded = await firstOf('properties');
    const stamps: string[] = [];
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(mock.server, 'PATCH', `/api/properties/${seeded.id}`, { body: { name: `Name ${i}` } })),
    );
    for (const reply of replies) stamps.push(reply.json().updatedAt);
    expect(new Set(stamps).size).toBe(10);
    expect(stamps.every((s) => s > seeded.updatedAt)).toBe(true);
    const last = (await call(mock.server, 'GET', `/api/properties/${seeded.id}`)).json();
    const same = (await call(mock.server, 'PATCH', `/api/properties/${seeded.id}`, { body: { name: last.name } })).json();
    expect(same.updatedAt).toBe(last.updatedAt);
    const since = await call(mock.server, 'GET', `/api/properties?updatedSince=${encodeURIComponent(last.updatedAt)}`);
    expect(since.json().items.map((p: { id: string }) => p.id)).toContain(seeded.id);
  });

  it('keeps a changed seeded record in its place in the order', async () => {
    const before = (await call(mock.server, 'GET', '/api/properties?page=2&limit=5')).json().items;
    await call(mock.server, 'PATCH', `/api/properties/${before[2].id}`, { body: { name: 'Moved?' } });
    const after = (await call(mock.server, 'GET', '/api/properties?page=2&limit=5')).json().items;
    expect(after.map((p: { id: string }) => p.id)).toEqual(before.map((p: { id: string }) => p.id));
    expect(after[2].name).toBe('Moved?');
  });
});

describe('bad input never crashes the mock', () => {
  it('malformed JSON → 400 INVALID_JSON', async () => {
    const reply = await call(mock.server, 'POST', '/api/properties', {
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatchObject({ code: 'INVALID_JSON', requestId: expect.stringMatching(/^req_/) });
  });

  it('a body that is not an object, wrong types, missing required fields → 422 with details', async () => {
    expect((await call(mock.server, 'POST', '/api/properties', { body: [1, 2] })).status).toBe(422);
    const wrong = await call(mock.server, 'POST', '/api/properties', {
      body: { name: 42, address: 'somewhere', propertyType: 'castle', yearBuilt: 'old' },
    });
    expect(wrong.status).toBe(422);
    const error = wrong.json().error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.map((d: { field: string }) => d.field).sort()).toEqual(['address', 'name', 'propertyType', 'yearBuilt']);
    const missing = await call(mock.server, 'POST', '/api/clients', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.json().error.message).toMatch(/name: is required.*clientType: is required/);
    const patch = await call(mock.server, 'PATCH', `/api/properties/${(await firstOf('properties')).id}`, { body: { name: null } });
    expect(patch.status).toBe(422);
  });

  it('unknown ids → 404; unknown routes → 404; wrong method → 405; wrong content type → 415', async () => {
    for (const path of [
      '/api/properties/',
      '/api/properties/nope',
      `/api/assignments/${UNKNOWN_ID}`,
      `/api/clients/${UNKNOWN_ID}/contacts`,
      `/api/files/${UNKNOWN_ID}/content`,
    ]) {
      const reply = await call(mock.server, 'GET', path);
      expect(reply.status, path).toBe(404);
      expect(reply.json().error.code).toBe('NOT_FOUND');
    }
    expect((await call(mock.server, 'PATCH', `/api/contacts/${UNKNOWN_ID}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await call(mock.server, 'GET', '/api/nothing-here')).status).toBe(404);
    expect((await call(mock.server, 'GET', '/elsewhere')).status).toBe(404);
    const wrongMethod = await call(mock.server, 'PUT', '/api/properties');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, POST');
    const form = await call(mock.server, 'POST', '/api/clients', {
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
  });

  it('a body over 1 MiB → 413, and the mock keeps serving', async () => {
    const reply = await call(mock.server, 'POST', '/api/properties', { body: { ...PROPERTY, blob: 'x'.repeat(1024 * 1024 + 10) } });
    expect(reply.status).toBe(413);
    expect((await call(mock.server, 'GET', '/api/properties?limit=1')).status).toBe(200);
  });

  it('references to records that do not exist → 422', async () => {
    const client = await firstOf('clients');
    const reply = await call(mock.server, 'POST', '/api/assignments', {
      body: {
        clientId: UNKNOWN_ID,
        propertyIds: [UNKNOWN_ID],
        dueDate: '2026-03-01',
        fee: { amount: 500, currency: 'USD' },
        reportType: 'form_1004',
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.json().error.details).toEqual([
      { field: 'clientId', message: `no client with id ${UNKNOWN_ID}` },
      { field: 'propertyIds[0]', message: `no property with id ${UNKNOWN_ID}` },
    ]);
    expect(client).toBeTruthy();
  });
});

describe('assignments', () => {
  it('creates with a number and draft status, links and unlinks properties idempotently, lists them', async () => {
    const client = await firstOf('clients');
    const [p1, p2] = (await call(mock.server, 'GET', '/api/properties?limit=2')).json().items;
    const assignment = await create('/api/assignments', {
      clientId: client.id,
      dueDate: '2026-04-30',
      fee: { amount: 650, currency: 'USD' },
      reportType: 'form_1004',
    });
    expect(assignment).toMatchObject({ status: 'draft', propertyIds: [], clientId: client.id });
    expect(assignment.number).toMatch(/^A-\d{4}-\d{5,}$/);

    for (let i = 0; i < 2; i++)
      expect((await call(mock.server, 'PUT', `/api/assignments/${assignment.id}/properties/${p1.id}`)).status).toBe(204);
    expect((await call(mock.server, 'PUT', `/api/assignments/${assignment.id}/properties/${p2.id}`)).status).toBe(204);
    const linked = (await call(mock.server, 'GET', `/api/assignments/${assignment.id}/properties`)).json();
    expect(linked.pagination).toEqual({ page: 1, limit: 25, total: 2, pages: 1 });
    expect(linked.items.map((p: { id: string }) => p.id)).toEqual([p1.id, p2.id]);

    for (let i = 0; i < 2; i++)
      expect((await call(mock.server, 'DELETE', `/api/assignments/${assignment.id}/properties/${p1.id}`)).status).toBe(204);
    expect((await call(mock.server, 'GET', `/api/assignments/${assignment.id}`)).json().propertyIds).toEqual([p2.id]);
    expect((await call(mock.server, 'PUT', `/api/assignments/${assignment.id}/properties/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await call(mock.server, 'PUT', `/api/assignments/${UNKNOWN_ID}/properties/${p1.id}`)).status).toBe(404);
  });

  it('accepts any status from the enums but refuses completed → draft with 409', async () => {
    const assignment = await firstOf('assignments');
    const bogus = await call(mock.server, 'PATCH', `/api/assignments/${assignment.id}`, { body: { status: 'teleported' } });
    expect(bogus.status).toBe(422);
    expect((await call(mock.server, 'PATCH', `/api/assignments/${assignment.id}`, { body: { status: 'completed' } })).json().status).toBe(
      'completed',
    );
    const back = await call(mock.server, 'PATCH', `/api/assignments/${assignment.id}`, { body: { status: 'draft' } });
    expect(back.status).toBe(409);
    expect(back.json().error).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', message: expect.stringContaining('completed') });
    expect((await call(mock.server, 'PATCH', `/api/assignments/${assignment.id}`, { body: { status: 'in_review' } })).status).toBe(200);
  });
});

describe('clients and contacts', () => {
  it('creates a client and a contact for it; the contact shows under the client and by id', async () => {
    const client = await create('/api/clients', { name: 'Summit Lending', clientType: 'lender', email: 'orders@summit.example.com' });
    const contact = await create(`/api/clients/${client.id}/contacts`, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      clientId: 'ignored',
      title: 'Underwriter',
    });
    expect(contact).toMatchObject({ clientId: client.id, firstName: 'Ada' });
    const list = (await call(mock.server, 'GET', `/api/clients/${client.id}/contacts`)).json();
    expect(list.items).toEqual([contact]);
    const patched = (await call(mock.server, 'PATCH', `/api/contacts/${contact.id}`, { body: { email: 'ada@summit.example.com' } })).json();
    expect(patched.email).toBe('ada@summit.example.com');
    expect((await call(mock.server, 'PATCH', `/api/contacts/${contact.id}`, { body: { email: 'not an email' } })).status).toBe(422);
    expect((await call(mock.server, 'DELETE', `/api/contacts/${contact.id}`)).status).toBe(204);
    expect((await call(mock.server, 'GET', `/api/contacts/${contact.id}`)).status).toBe(404);
    expect(
      (await call(mock.server, 'POST', `/api/clients/${UNKNOWN_ID}/contacts`, { body: { firstName: 'A', lastName: 'B' } })).status,
    ).toBe(404);
  });

  it('serves seeded contacts under their seeded client', async () => {
    const clients = (await call(mock.server, 'GET', '/api/clients?limit=100')).json().items;
    const counts = await Promise.all(
      clients.map(async (c: { id: string }) => (await call(mock.server, 'GET', `/api/clients/${c.id}/contacts`)).json().pagination.total),
    );
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(30);
  });
});
