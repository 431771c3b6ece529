// Authentication and authorisation: 401 for missing, malformed, unknown, expired and revoked keys;
// 403 when the scopes do not allow the operation (with the scopes that would); key management.
import { describe, expect, it } from 'vitest';
import { adminKey, call, useMock } from '../helpers/mock-admin.js';

const mock = useMock({ records: 20 });

const NEW_PROPERTY = {
  name: 'Scope Test House',
  address: { line1: '1 Test St', city: 'Austin', region: 'TX', postalCode: '78701', country: 'US' },
  propertyType: 'single_family',
};

describe('401: the credential', () => {
  it.each([
    ['missing', null, 'API_KEY_MISSING'],
    ['malformed', 'not-a-key', 'API_KEY_INVALID'],
    ['malformed (short secret)', 'apk_AAAAAAAA_short', 'API_KEY_INVALID'],
    ['unknown', 'apk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', 'API_KEY_INVALID'],
  ])('%s → 401 %s with the error body and no secret in it', async (_label, key, code) => {
    const reply = await call(mock.server, 'GET', '/api/properties', { key });
    expect(reply.status).toBe(401);
    const body = reply.json();
    expect(body).toEqual({ error: { code, message: expect.any(String), requestId: reply.headers['x-request-id'] } });
    expect(reply.text).not.toContain('BBBBBBBB');
  });

  it('expired → 401 API_KEY_EXPIRED', async () => {
    const expired = await adminKey(mock.server, ['api:read'], { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const reply = await call(mock.server, 'GET', '/api/properties', { key: expired.secret });
    expect(reply.status).toBe(401);
    expect(reply.json().error.code).toBe('API_KEY_EXPIRED');
    expect(reply.json().error.message).toContain(expired.prefix);
  });

  it('revoked through DELETE /api/keys/{id} → 204, then 401 API_KEY_REVOKED', async () => {
    const created = await call(mock.server, 'POST', '/api/keys', { body: { name: 'to revoke', scopes: ['api:read'] } });
    expect(created.status).toBe(201);
    const key = created.json();
    expect((await call(mock.server, 'GET', '/api/properties', { key: key.secret })).status).toBe(200);
    const revoked = await call(mock.server, 'DELETE', `/api/keys/${key.id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    const after = await call(mock.server, 'GET', '/api/properties', { key: key.secret });
    expect(after.status).toBe(401);
    expect(after.json().error.code).toBe('API_KEY_REVOKED');
    expect((await call(mock.server, 'GET', `/api/keys/${key.id}`)).json().revokedAt).toEqual(expect.any(String));
  });

  it('accepts the key as a bearer token too, never from the query string', async () => {
    const bearer = await call(mock.server, 'GET', '/api/keys/current', {
      key: null,
      headers: { authorization: `Bearer ${mock.server.adminKey}` },
    });
    expect(bearer.status).toBe(200);
    const query = await call(mock.server, 'GET', `/api/properties?api_key=${mock.server.adminKey}`, { key: null });
    expect(query.status).toBe(401);
  });
});

describe('403: scopes', () => {
  it('a read-only key created through POST /api/keys gets 403 on POST /api/properties, naming the scopes that would allow it', async () => {
    const created = await call(mock.server, 'POST', '/api/keys', { body: { name: 'read only', scopes: ['api:read'] } });
    expect(created.status).toBe(201);
    const readOnly = created.json();
    expect(readOnly.secret).toMatch(/^apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    expect((await call(mock.server, 'GET', '/api/properties', { key: readOnly.secret })).status).toBe(200);
    const reply = await call(mock.server, 'POST', '/api/properties', { key: readOnly.secret, body: NEW_PROPERTY });
    expect(reply.status).toBe(403);
    expect(reply.json().error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requestId: reply.headers['x-request-id'] });
    expect(reply.json().error.message).toContain('requires one of: api:write, properties:write');
  });

  it('a properties:read key may list properties but gets 403 on POST /api/clients and on GET /api/clients', async () => {
    const key = await adminKey(mock.server, ['properties:read']);
    expect((await call(mock.server, 'GET', '/api/properties', { key: key.secret })).status).toBe(200);
    const create = await call(mock.server, 'POST', '/api/clients', { key: key.secret, body: { name: 'X', clientType: 'lender' } });
    expect(create.status).toBe(403);
    expect(create.json().error.message).toContain('requires one of: api:write, clients:write');
    const list = await call(mock.server, 'GET', '/api/clients', { key: key.secret });
    expect(list.status).toBe(403);
    expect(list.json().error.message).toContain('api:read, clients:read');
  });

  it('applies the inclusion rules: write implies read, delete implies write, api:* excludes key management', async () => {
    const writer = await adminKey(mock.server, ['properties:write']);
    expect((await call(mock.server, 'GET', '/api/properties', { key: writer.secret })).status).toBe(200);
    const created = await call(mock.server, 'POST', '/api/properties', { key: writer.secret, body: NEW_PROPERTY });
    expect(created.status).toBe(201);
    expect((await call(mock.server, 'DELETE', `/api/properties/${created.json().id}`, { key: writer.secret })).status).toBe(403);

    const deleter = await adminKey(mock.server, ['api:delete']);
    expect(
      (await call(mock.server, 'PATCH', `/api/properties/${created.json().id}`, { key: deleter.secret, body: { name: 'renamed' } })).status,
    ).toBe(200);
    expect((await call(mock.server, 'DELETE', `/api/properties/${created.json().id}`, { key: deleter.secret })).status).toBe(204);
    expect((await call(mock.server, 'GET', '/api/keys', { key: deleter.secret })).status).toBe(403);
    expect((await call(mock.server, 'GET', '/api/reference/enums', { key: deleter.secret })).status).toBe(200);

    const contacts = await adminKey(mock.server, ['clients:read']);
    const client = (await call(mock.server, 'GET', '/api/clients?limit=1')).json().items[0];
    expect((await call(mock.server, 'GET', `/api/clients/${client.id}/contacts`, { key: contacts.secret })).status).toBe(200);

    const keyAdmin = await adminKey(mock.server, ['keys:admin']);
    expect((await call(mock.server, 'GET', '/api/keys', { key: keyAdmin.secret })).status).toBe(200);
    expect((await call(mock.server, 'GET', '/api/properties', { key: keyAdmin.secret })).status).toBe(403);
  });
});

describe('API keys', () => {
  it('creates a key: 201 with the record and the secret once; the store keeps only the prefix', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await call(mock.server, 'POST', '/api/keys', {
      body: { name: 'ci', scopes: ['api:read', 'files:write'], expiresAt, note: 'kept' },
    });
    expect(created.status).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({
      name: 'ci',
      scopes: ['api:read', 'files:write'],
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      note: 'kept',
    });
    expect(key.prefix).toBe(key.secret.slice(0, 12));
    expect(Object.keys(key).sort()).toEqual(
      [
        'createdAt',
        'createdBy',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'note',
        'prefix',
        'revokedAt',
        'scopes',
        'secret',
        'updatedAt',
      ].sort(),
    );
    const fetched = (await call(mock.server, 'GET', `/api/keys/${key.id}`)).json();
    expect(fetched.secret).toBeUndefined();
    const listed = await call(mock.server, 'GET', '/api/keys?limit=100');
    expect(listed.text).not.toContain(key.secret);
    expect(listed.text).not.toContain(mock.server.adminKey);
    expect(listed.json().items.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it('GET /api/keys/current answers for any valid key, and records lastUsedAt', async () => {
    const key = await adminKey(mock.server, ['reference:read']);
    const current = await call(mock.server, 'GET', '/api/keys/current', { key: key.secret });
    expect(current.status).toBe(200);
    expect(current.json()).toMatchObject({ id: key.id, prefix: key.prefix, scopes: ['reference:read'], lastUsedAt: expect.any(String) });
  });

  it('refuses unknown scopes (422), a past expiry (422) and scopes beyond the creator (403)', async () => {
    const unknown = await call(mock.server, 'POST', '/api/keys', { body: { name: 'x', scopes: ['api:read', 'api:everything'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.json().error.message).toContain('api:everything');
    const past = await call(mock.server, 'POST', '/api/keys', {
      body: { name: 'x', scopes: ['api:read'], expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(422);
    const noScopes = await call(mock.server, 'POST', '/api/keys', { body: { name: 'x', scopes: [] } });
    expect(noScopes.status).toBe(422);

    const limitedAdmin = await adminKey(mock.server, ['keys:admin', 'properties:read']);
    const within = await call(mock.server, 'POST', '/api/keys', {
      key: limitedAdmin.secret,
      body: { name: 'narrow', scopes: ['properties:read'] },
    });
    expect(within.status).toBe(201);
    const beyond = await call(mock.server, 'POST', '/api/keys', {
      key: limitedAdmin.secret,
      body: { name: 'wide', scopes: ['api:write'] },
    });
    expect(beyond.status).toBe(403);
    expect(beyond.json().error.message).toContain('api:write');
  });

  it('answers 404 for an unknown key id', async () => {
    const reply = await call(mock.server, 'DELETE', '/api/keys/00000000-0000-4000-8000-000000000000');
    expect(reply.status).toBe(404);
    expect(reply.json().error.code).toBe('NOT_FOUND');
  });
});

describe('admin routes', () => {
  it('need the admin key or an api:admin key', async () => {
    const reader = await adminKey(mock.server, ['api:read']);
    expect((await call(mock.server, 'GET', '/__mock/requests', { key: null })).status).toBe(401);
    expect((await call(mock.server, 'GET', '/__mock/requests', { key: reader.secret })).status).toBe(403);
    const admin = await adminKey(mock.server, ['api:admin']);
    expect((await call(mock.server, 'GET', '/__mock/requests', { key: admin.secret })).status).toBe(200);
  });

  it('log requests with the key prefix, never the secret', async () => {
    await call(mock.server, 'GET', '/api/properties?limit=3&page=2');
    const log = await call(mock.server, 'GET', '/__mock/requests?limit=50');
    expect(log.status).toBe(200);
    expect(log.text).not.toContain(mock.server.adminKey);
    const entry = log
      .json()
      .items.reverse()
      .find((e: { path: string }) => e.path === '/api/properties');
    expect(entry).toMatchObject({
      method: 'GET',
      query: { limit: '3', page: '2' },
      status: 200,
      keyPrefix: mock.server.adminKey.slice(0, 12),
    });
  });

  it('reset restores the seeded data and drops the keys made since', async () => {
    const before = (await call(mock.server, 'GET', '/api/properties?limit=5')).json();
    const key = await adminKey(mock.server, ['api:read']);
    await call(mock.server, 'DELETE', `/api/properties/${before.items[0].id}`);
    expect((await call(mock.server, 'POST', '/__mock/reset')).status).toBe(204);
    expect((await call(mock.server, 'GET', '/api/properties?limit=5')).json()).toEqual(before);
    expect((await call(mock.server, 'GET', '/api/properties', { key: key.secret })).status).toBe(401);
    expect((await call(mock.server, 'GET', '/api/properties')).status).toBe(200);
  });
});
