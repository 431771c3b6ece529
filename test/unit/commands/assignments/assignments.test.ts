import { describe, expect, it } from 'vitest';
import { RejectedError, UsageError } from '../../../../src/core/errors.js';
import assignmentsCommand from '../../../../src/commands/assignments/index.js';
import { apiContext, runNoun } from '../fake-api.js';

const ASSIGNMENT = '6b1f5f0e-3c1a-4f7e-9d3b-2a1c0e9f8d7c';
const PROPERTY = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';
const CLIENT = '0d7c6b5a-4e3f-4a2b-8c1d-9e8f7a6b5c4d';

describe('assignments', () => {
  it('sends --status as given and checks --client/--property ids', async () => {
    const fake = apiContext({ paginate: () => [] });
    await runNoun(assignmentsCommand, fake.ctx, ['list', '--status', 'some_new_state', '--client', CLIENT, '--property', PROPERTY]);
    expect(fake.calls).toEqual([
      { method: 'PAGINATE', path: '/api/assignments', query: { status: 'some_new_state', clientId: CLIENT, propertyId: PROPERTY } },
    ]);
    await expect(runNoun(assignmentsCommand, fake.ctx, ['list', '--client', 'acme'])).rejects.toThrow(
      '--client must be a UUID, got "acme"',
    );
  });

  it('lists the linked properties of one assignment', async () => {
    const fake = apiContext({ paginate: () => [{ id: PROPERTY, name: 'Harbor Point' }] });
    await runNoun(assignmentsCommand, fake.ctx, ['properties', ASSIGNMENT]);
    expect(fake.calls).toEqual([{ method: 'PAGINATE', path: `/api/assignments/${ASSIGNMENT}/properties`, query: {} }]);
    expect(JSON.parse(fake.stdout())).toEqual([{ id: PROPERTY, name: 'Harbor Point' }]);
    await expect(runNoun(assignmentsCommand, fake.ctx, ['properties', 'x'])).rejects.toBeInstanceOf(UsageError);
  });

  it('links with PUT and prints the assignment the service answers with', async () => {
    const fake = apiContext({ send: () => ({ id: ASSIGNMENT, propertyIds: [PROPERTY] }) });
    await runNoun(assignmentsCommand, fake.ctx, ['link', ASSIGNMENT, PROPERTY]);
    expect(fake.calls).toEqual([{ method: 'PUT', path: `/api/assignments/${ASSIGNMENT}/properties/${PROPERTY}`, body: undefined }]);
    expect(JSON.parse(fake.stdout())).toEqual({ id: ASSIGNMENT, propertyIds: [PROPERTY] });
    expect(fake.stderr()).toBe(`Linked property ${PROPERTY} to assignment ${ASSIGNMENT}\n`);
  });

  it('unlinks with DELETE; a 204 prints only the notice', async () => {
    const fake = apiContext({ send: () => undefined });
    await runNoun(assignmentsCommand, fake.ctx, ['unlink', ASSIGNMENT, PROPERTY]);
    expect(fake.calls).toEqual([{ method: 'DELETE', path: `/api/assignments/${ASSIGNMENT}/properties/${PROPERTY}`, body: undefined }]);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe(`Unlinked property ${PROPERTY} from assignment ${ASSIGNMENT}\n`);
  });

  it('passes the service refusal of a change through untouched', async () => {
    const refusal = new RejectedError('the service rejected the request: cannot reopen a completed assignment', {
      status: 409,
      method: 'PATCH',
      path: `/api/assignments/${ASSIGNMENT}`,
    });
    const fake = apiContext({
      send: () => {
        throw refusal;
      },
    });
    await expect(runNoun(assignmentsCommand, fake.ctx, ['update', ASSIGNMENT, '-f', 'status=draft'])).rejects.toBe(refusal);
  });
});
