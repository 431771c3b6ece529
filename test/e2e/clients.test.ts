// Lists and create/get/update in every format: formats.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey } from './credentials-support.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
const cli = (...args: string[]) => run(args, { env });

async function createClient(name: string): Promise<string> {
  const result = await cli('clients', 'create', '-o', 'json', '-f', `name=${name}`, '-f', 'clientType=lender');
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { id: string }).id;
}

beforeAll(async () => {
  mock = await startMock({ records: 5 });
  env = { ...isolatedEnv(), ...mock.env };
});
afterAll(() => mock?.stop());

describe('clients', () => {
  it('filters by --type and --q', async () => {
    const all = JSON.parse((await cli('clients', 'list', '-o', 'json')).stdout) as Array<{ id: string; name: string; clientType: string }>;
    const { clientType, name } = all[0]!;
    const byType = JSON.parse((await cli('clients', 'list', '--type', clientType, '-o', 'json')).stdout) as typeof all;
    expect(byType.map((c) => c.id)).toEqual(all.filter((c) => c.clientType === clientType).map((c) => c.id));
    const byName = JSON.parse((await cli('clients', 'list', '--search', name, '-o', 'json')).stdout) as typeof all;
    // The old spelling is a hidden alias: it still filters, and help does not offer it.
    expect(JSON.parse((await cli('clients', 'list', '--q', name, '-o', 'json')).stdout)).toEqual(byName);
    expect((await cli('clients', 'list', '--help')).stdout).not.toMatch(/--q\b/);
    expect(byName.map((c) => c.id)).toContain(all[0]!.id);
  });

  it('delete prints nothing on stdout (it takes no -o), then the client is gone', async () => {
    const id = await createClient('Doomed');
    const result = await cli('clients', 'delete', id, '--yes');
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain(`Deleted client ${id}`);
    const gone = await cli('clients', 'get', id);
    expect(gone.code).toBe(6);
  });

  it('refuses bad input before any request', async () => {
    const badId = await cli('clients', 'get', 'acme');
    expect(badId).toMatchObject({ code: 2, stdout: '' });
    expect(badId.stderr).toBe('error: client id must be a UUID, got "acme"\n');
    const noBody = await cli('clients', 'create');
    expect(noBody).toMatchObject({ code: 2, stdout: '' });
    expect(noBody.stderr).toMatch(/^error: .*\nhint: .*--data/);
  });

  it('passes the service validation message through (exit 7)', async () => {
    const result = await cli('clients', 'create', '-f', 'name=No Type', '--no-validate');
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/clientType/);
  });

  it('a key scoped to properties:read cannot create a client (exit 5, names clients:write)', async () => {
    const key = await createKey(mock, { name: 'props-only', scopes: ['properties:read'] });
    const result = await run(['clients', 'create', '-f', 'name=Nope', '-f', 'clientType=lender'], {
      env: { ...env, APPRAISAL_API_KEY: key.secret },
    });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('clients:write');
    expect(result.stderr).not.toContain(key.secret);
  });
});
