// envelope.ts alone: the collection envelope and a single record, checked by hand, with the
// complaints a broken service gets (one per field, in field order, at most three).
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../../src/core/errors.js';
import { parseCollectionPage, parseRecord, unwrapPublished } from '../../../../src/core/http/envelope.js';

const where = 'page 2 of /api/things';
const pagination = { page: 2, limit: 25, total: 60, pages: 3 };

function complaint(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return (error as Error).message;
  }
  throw new Error('no complaint');
}

const envelope = (body: unknown) => complaint(() => parseCollectionPage(body, where));

describe('collection envelope', () => {
  it('reads the records and the four counts of the pagination, nothing else of it', () => {
    const items = [{ id: 'a', name: 'A' }, { id: 'b' }];
    const page = parseCollectionPage({ items, pagination: { ...pagination, next: '/x' }, links: {} }, where);
    expect(page.items).toBe(items);
    expect(page.pagination).toEqual(pagination);
  });

  it('refuses a body that is no object', () => {
    for (const body of [null, 'text', 3, [], [{ id: 'a' }]])
      expect(envelope(body)).toBe(`${where}: the answer is not a collection envelope {items, pagination} ((body): Invalid input)`);
  });

  it('names each field that breaks it, in order, at most three', () => {
    expect(envelope({})).toMatch(/\(items: Invalid input; pagination: Invalid input\)$/);
    expect(envelope({ items: {}, pagination })).toMatch(/\(items: Invalid input\)$/);
    expect(envelope({ items: [], pagination: [] })).toMatch(/\(pagination: Invalid input\)$/);
    expect(envelope({ items: [], pagination: { ...pagination, pages: '3' } })).toMatch(/\(pagination\.pages: Invalid input\)$/);
    expect(envelope({ items: [], pagination: {} })).toMatch(
      /\(pagination\.page: Invalid input; pagination\.limit: Invalid input; pagination\.total: Invalid input\)$/,
    );
  });

  it('takes counts as whole numbers from 0 to 2^53 - 1', () => {
    for (const bad of [-1, 1.5, 2 ** 53, -(2 ** 53), null, true])
      expect(envelope({ items: [], pagination: { ...pagination, limit: bad } })).toMatch(/\(pagination\.limit: Invalid input\)$/);
    for (const good of [0, 2 ** 53 - 1])
      expect(parseCollectionPage({ items: [], pagination: { ...pagination, total: good } }, where).pagination.total).toBe(good);
  });

  it('names the first item that is no record with a string id', () => {
    expect(envelope({ items: [{ id: 'a' }, { id: 7 }], pagination })).toBe(
      `${where}: item 2 is not a record with a string id (id: expected a string, got number)`,
    );
    expect(envelope({ items: [null], pagination })).toMatch(
      /item 1 is not a record with a string id \(\(body\): expected an object, got null\)$/,
    );
  });
});

describe('one record', () => {
  it('is an object with a string id, kept as it came', () => {
    const record = { id: 'a', extra: { n: 1 } };
    expect(parseRecord(record, 'POST /api/files')).toBe(record);
  });

  it('refuses anything else, saying what', () => {
    expect(complaint(() => parseRecord([], 'POST /api/files'))).toBe(
      'POST /api/files: the answer is not a record with a string id ((body): Invalid input)',
    );
    expect(complaint(() => parseRecord({ id: 1 }, 'POST /api/files'))).toBe(
      'POST /api/files: the answer is not a record with a string id (id: Invalid input)',
    );
  });
});

describe('an answer the description publishes as {success, data}', () => {
  it('names what came instead, in plain English', () => {
    const site = { status: 200, method: 'POST', path: '/api/files/x/attachments' };
    expect(complaint(() => unwrapPublished({ success: true }, 'data', site))).toBe(
      'POST /api/files/x/attachments: the description publishes a {success, data} answer, the service sent an object',
    );
    expect(complaint(() => unwrapPublished('ok', 'data', site))).toMatch(/the service sent a string$/);
  });
});
