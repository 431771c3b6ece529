// contacts: list and create go through the client's sub-collection; get/update/delete do not.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { RESOURCES } from '../../../../src/core/resources.js';
import { familyVerbs } from '../../../../src/commands/shared/family-verbs.js';
import { apiContext, runNoun } from '../fake-api.js';

const contactsCommand = familyVerbs(RESOURCES.contacts);

const CLIENT = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';
const CONTACT = '6b1f5f0e-3c1a-4f7e-9d3b-2a1c0e9f8d7c';

describe('contacts', () => {
  it('lists the contacts of the client given with --client', async () => {
    const fake = apiContext({ paginate: () => [{ id: CONTACT, firstName: 'Dana' }] });
    await runNoun(contactsCommand, fake.ctx, ['list', '--client', CLIENT]);
    expect(fake.calls).toEqual([{ method: 'PAGINATE', path: `/api/clients/${CLIENT}/contacts`, query: {} }]);
    expect(JSON.parse(fake.stdout())).toEqual([{ id: CONTACT, firstName: 'Dana' }]);
  });

  it.each([
    [['list'], 'contacts list needs --client ID'],
    [['create', '-f', 'firstName=Dana'], 'contacts create needs --client ID'],
    [['list', '--client', 'acme'], '--client must be a UUID, got "acme"'],
  ])('refuses %o before any request', async (args, message) => {
    const fake = apiContext();
    const error = await runNoun(contactsCommand, fake.ctx, args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
    expect(fake.calls).toEqual([]);
  });

  it('creates under the client, and gets/updates/deletes by the contact id', async () => {
    const fake = apiContext({ send: (_m, _p, body) => ({ id: CONTACT, ...(body as object) }), get: () => ({ id: CONTACT }) });
    await runNoun(contactsCommand, fake.ctx, ['create', '--client', CLIENT, '-f', 'firstName=Dana']);
    await runNoun(contactsCommand, fake.ctx, ['get', CONTACT]);
    await runNoun(contactsCommand, fake.ctx, ['update', CONTACT, '-f', 'title=Chief Appraiser']);
    await runNoun(contactsCommand, fake.ctx, ['delete', CONTACT]);
    expect(fake.calls).toEqual([
      { method: 'POST', path: `/api/clients/${CLIENT}/contacts`, body: { firstName: 'Dana' } },
      { method: 'GET', path: `/api/contacts/${CONTACT}` },
      { method: 'PATCH', path: `/api/contacts/${CONTACT}`, body: { title: 'Chief Appraiser' } },
      { method: 'DELETE', path: `/api/contacts/${CONTACT}`, body: undefined },
    ]);
  });
});
