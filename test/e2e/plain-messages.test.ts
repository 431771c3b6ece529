// Issue 25 §5, each a line a person reads: a key not in the usual form is named without an empty
// prefix; `--api-key-file -` with another input from stdin is one error naming both; a delete prompt
// names the record beside its id; an unreachable service names the command the user ran, not the
// description's URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';

let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  mock = await startMock({ records: 5, seed: 7, http: true });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

const firstId = async (family: string): Promise<{ id: string } & Record<string, unknown>> => {
  const listed = await run([family, 'list', '-o', 'json', '--max-items', '1'], { env });
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as Array<{ id: string } & Record<string, unknown>>)[0]!;
};

describe('a key not in the usual apk_ form', () => {
  it.each([
    ['too short to show any of it', 'abc', 'the API key (profile "default", from APPRAISAL_API_KEY; not in the usual apk_… form)'],
    [
      'a long token: its first 4 characters',
      'abcdefghijklmnopqrstu',
      'the API key abcd (profile "default", from APPRAISAL_API_KEY; not in the usual apk_… form)',
    ],
  ])('%s: no empty prefix, no double space', async (_name, key, named) => {
    const result = await run(['props', 'list'], { env: { ...env, APPRAISAL_API_KEY: key } });
    expect(result.code).toBe(4);
    expect(exitProblems(result)).toEqual([]);
    expect(result.stderr).toContain(named);
    expect(result.stderr).not.toMatch(/ {2}\(profile/);
  });

  it('--verbose names it without an empty prefix either', async () => {
    const result = await run(['props', 'list', '-v'], { env: { ...env, APPRAISAL_API_KEY: 'abc' } });
    expect(result.stderr).toContain('credential: a key (too short to show any of it) from APPRAISAL_API_KEY');
  });
});

describe('--api-key-file - and another input from stdin', () => {
  it.each([
    [['props', 'create', '--api-key-file', '-', '--data', '-'], '--data -'],
    [['props', 'update', '00000000-0000-4000-8000-000000000000', '--api-key-file', '-', '--data', '@-'], '--data @-'],
    [['api', 'POST', '/api/properties', '--api-key-file', '-', '--data', '-'], '--data -'],
    [['props', 'import', '-', '--format', 'csv', '--api-key-file', '-'], 'props import -'],
  ])('%j: one error naming both, exit 2, nothing sent', async (args, input) => {
    await admin.clearRequests();
    const result = await run(args, { env: { ...env, APPRAISAL_API_KEY: undefined }, stdin: `${mock.adminKey}\n` });
    expect(result.code).toBe(2);
    expect(exitProblems(result)).toEqual([]);
    expect(result.stderr.split('\n')[0]).toBe(`error: --api-key-file - and ${input} both read stdin; only one of them can`);
    expect((await admin.apiRequests()).filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('the delete prompt names the record beside its id', () => {
  it.each([
    ['props', (record: Record<string, unknown>) => String(record.name)],
    ['clients', (record: Record<string, unknown>) => String(record.name)],
    ['assignments', (record: Record<string, unknown>) => String(record.number)],
    ['files', (record: Record<string, unknown>) => String(record.name)],
  ])('%s delete on production asks "delete … ID (NAME)?"; `n` deletes nothing', async (family, nameOf) => {
    const record = await firstId(family);
    const result = await run([family, 'delete', record.id], {
      env: { ...env, APPRAISAL_ENVIRONMENT: 'production' },
      tty: true,
      stdin: 'n\n',
    });
    expect(result.code).toBe(11);
    expect(result.stderr).toContain('PRODUCTION');
    expect(result.stderr).toContain(` ${record.id} (${nameOf(record)})? [y/N] `);
    const still = await run([family, 'get', record.id, '-o', 'json'], { env });
    expect(still.code, still.stderr).toBe(0);
  });

  it('contacts: first and last name', async () => {
    const client = await firstId('clients');
    const listed = await run(['contacts', 'list', '--client', client.id, '-o', 'json'], { env });
    const contact = (JSON.parse(listed.stdout) as Array<{ id: string; firstName: string; lastName: string }>)[0]!;
    const result = await run(['contacts', 'delete', contact.id], {
      env: { ...env, APPRAISAL_ENVIRONMENT: 'production' },
      tty: true,
      stdin: 'n\n',
    });
    expect(result.code).toBe(11);
    expect(result.stderr).toContain(`delete contact ${contact.id} (${contact.firstName} ${contact.lastName})? [y/N] `);
  });

  it('a record that cannot be read is asked about by its id alone; --yes reads nothing first', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const asked = await run(['props', 'delete', missing], { env, tty: true, stdin: 'n\n' });
    expect(asked.code).toBe(11);
    expect(asked.stderr).toContain(`delete property ${missing}? [y/N] `);
    const record = await firstId('props');
    await admin.clearRequests();
    const yes = await run(['props', 'delete', record.id, '--yes'], { env });
    expect(yes.code, yes.stderr).toBe(0);
    expect((await admin.apiRequests()).map((request) => request.method)).toEqual(['DELETE']);
  });
});

describe('a service that cannot be reached', () => {
  it('the description is skipped with a warning; the command fails on its own request, naming the command', async () => {
    // A port that refuses: one a server of ours listened on and closed.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await run(['props', 'list', '--retries', '0'], {
      env: { ...env, APPRAISAL_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(result.code).toBe(3);
    expect(exitProblems(result)).toEqual([]);
    expect(result.stderr.split('\n')).toEqual([
      `warning: while reading the service description for \`appraisal props list\`: cannot connect to http://127.0.0.1:${port}: connection refused; going on with the CLI's own model (bundled openapi.json)`,
      `error: \`appraisal props list\`: GET /api/properties?page=1: cannot connect to http://127.0.0.1:${port}: connection refused`,
      'hint: is the service running at that address? check --base-url',
      '',
    ]);
  });
});
