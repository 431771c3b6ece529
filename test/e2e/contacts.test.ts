// Lists and create/get/update in every format: formats.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
let clientId: string;
const cli = (...args: string[]) => run(args, { env });

async function createContact(firstName: string): Promise<string> {
  const result = await cli(
    'contacts',
    'create',
    '--client',
    clientId,
    '-o',
    'json',
    '-f',
    `firstName=${firstName}`,
    '-f',
    'lastName=Reyes',
  );
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { id: string }).id;
}

beforeAll(async () => {
  mock = await startMock({ records: 4 });
  env = { ...isolatedEnv(), ...mock.env };
  const created = await cli('clients', 'create', '-o', 'json', '-f', 'name=Contact Holding Bank', '-f', 'clientType=lender');
  clientId = (JSON.parse(created.stdout) as { id: string }).id;
  await createContact('Dana');
  await createContact('Sam');
});
afterAll(() => mock?.stop());

describe('contacts', () => {
  it('list and create need --client', async () => {
    const list = await cli('contacts', 'list');
    expect(list).toMatchObject({ code: 2, stdout: '' });
    expect(list.stderr.split('\n')[0]).toBe('error: contacts list needs --client ID');
    const create = await cli('contacts', 'create', '-f', 'firstName=X', '-f', 'lastName=Y');
    expect(create.code).toBe(2);
    expect(create.stderr.split('\n')[0]).toBe('error: contacts create needs --client ID');
    const bad = await cli('contacts', 'list', '--client', 'acme');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --client must be a UUID, got "acme"\n');
  });

  it('an unknown client is a 404 (exit 6)', async () => {
    const result = await cli('contacts', 'list', '--client', '00000000-0000-4000-8000-000000000000');
    expect(result.code).toBe(6);
  });

  it('delete prints nothing on stdout (it takes no -o), then the contact is gone', async () => {
    const id = await createContact('Gone');
    const result = await cli('contacts', 'delete', id, '--yes');
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain(`Deleted contact ${id}`);
    expect((await cli('contacts', 'get', id)).code).toBe(6);
  });
});
