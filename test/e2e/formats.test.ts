// Every output format for every record family, as one table: list (default columns, the right
// records) and create → get → update, each read back in json, ndjson, csv and table. One mock, one
// parametrised test over families × formats, instead of the same test repeated in each family's file.
// (files and ref have their own shapes: see files.test.ts and ref.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { FORMATS, readList, readRecord, type Format } from '../helpers/output-formats.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
const cli = (...args: string[]) => runCli(args, { env });

async function json<T>(...args: string[]): Promise<T> {
  const result = await cli(...args, '-o', 'json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** What the families need from the seeded service (filled in once, before the tests). */
const seed = {
  /** The client of the first seeded assignment. */
  assignmentClientId: '',
  assignmentIds: [] as string[],
  clientIds: [] as string[],
  /** A client of our own with exactly two contacts, Dana and Sam. */
  contactClientId: '',
};

const structured = (format: Format) => format === 'json' || format === 'ndjson';

interface Family {
  noun: string;
  columns: string[];
  listArgs(): string[];
  /** The list's records are the right ones. */
  checkList(records: Array<Record<string, unknown>>, format: Format): void;
  createArgs(format: Format): string[];
  /** What the created record shows (structured formats nest, csv and table flatten to dotted names). */
  created(format: Format): Record<string, unknown>;
  /** What `get` shows besides the id. */
  got(format: Format): Record<string, unknown>;
  updateArgs: string[];
  updated(format: Format): Record<string, unknown>;
}

const FAMILIES: Family[] = [
  {
    noun: 'clients',
    columns: ['id', 'name', 'clientType', 'email', 'phone', 'address.city'],
    listArgs: () => [],
    checkList: (records) => {
      expect(seed.clientIds.length).toBeGreaterThanOrEqual(5);
      expect(records.map((r) => r.id)).toEqual(seed.clientIds);
    },
    createArgs: (format) => [
      '--data',
      JSON.stringify({ name: `Harbor Bank ${format}`, clientType: 'lender', address: { line1: '1 Pier Rd', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' } }),
    ],
    created: (format) =>
      structured(format) ? { name: `Harbor Bank ${format}`, address: { city: 'Boston' } } : { name: `Harbor Bank ${format}`, 'address.city': 'Boston' },
    got: (format) => ({ name: `Harbor Bank ${format}` }),
    updateArgs: ['-f', 'phone=+1-617-555-0100'],
    updated: (format) => ({ phone: '+1-617-555-0100', name: `Harbor Bank ${format}` }),
  },
  {
    noun: 'contacts',
    columns: ['id', 'firstName', 'lastName', 'title', 'email', 'phone'],
    listArgs: () => ['--client', seed.contactClientId],
    checkList: (records, format) => {
      // That client's contacts only.
      expect(records.map((r) => r.firstName).sort()).toEqual(['Dana', 'Sam']);
      if (format === 'json') expect(records.every((r) => r.clientId === seed.contactClientId)).toBe(true);
    },
    createArgs: (format) => ['--client', seed.contactClientId, '-f', `firstName=Lee ${format}`, '-f', 'lastName=Park', '-f', 'email=lee@example.com'],
    created: (format) => ({ firstName: `Lee ${format}`, lastName: 'Park', email: 'lee@example.com' }),
    got: (format) => ({ firstName: `Lee ${format}` }),
    updateArgs: ['-f', 'title=Chief Appraiser'],
    updated: () => ({ title: 'Chief Appraiser' }),
  },
  {
    noun: 'assignments',
    columns: ['id', 'number', 'status', 'clientId', 'dueDate', 'fee.amount', 'fee.currency', 'reportType'],
    listArgs: () => [],
    checkList: (records) => expect(records.map((r) => r.id)).toEqual(seed.assignmentIds),
    createArgs: () => ['-f', `clientId=${seed.assignmentClientId}`, '-f', 'reportType=appraisal_report', '-f', 'dueDate=2026-03-31', '-F', 'fee.amount=3500', '-f', 'fee.currency=USD'],
    created: () => ({ clientId: seed.assignmentClientId, reportType: 'appraisal_report', dueDate: '2026-03-31', status: 'draft' }),
    got: () => ({ clientId: seed.assignmentClientId }),
    updateArgs: ['-f', 'status=accepted'],
    updated: () => ({ status: 'accepted' }),
  },
];

beforeAll(async () => {
  mock = await startMock({ records: 12 });
  env = { ...isolatedEnv(), ...mock.env };
  const holder = await json<{ id: string }>('clients', 'create', '-f', 'name=Contact Holding Bank', '-f', 'clientType=lender');
  for (const firstName of ['Dana', 'Sam']) await json('contacts', 'create', '--client', holder.id, '-f', `firstName=${firstName}`, '-f', 'lastName=Reyes');
  // The lists as they stand before the tests (which create records only after every list test).
  const [assignments, clients] = await Promise.all([
    json<Array<{ id: string; clientId: string }>>('assignments', 'list'),
    json<Array<{ id: string }>>('clients', 'list'),
  ]);
  seed.assignmentIds = assignments.map((a) => a.id);
  seed.assignmentClientId = assignments[0]!.clientId;
  seed.clientIds = clients.map((c) => c.id);
  seed.contactClientId = holder.id;
});
afterAll(() => mock?.stop());

const CASES = FAMILIES.flatMap((family) => FORMATS.map((format) => [family.noun, format, family] as const));

describe('every family in every format', () => {
  it.each(CASES)('%s list (%s) shows the right records with the default columns', async (_noun, format, family) => {
    const result = await cli(family.noun, 'list', ...family.listArgs(), '-o', format);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { columns, records } = readList(format, result.stdout);
    if (columns) expect(columns).toEqual(family.columns);
    family.checkList(records, format);
  });

  it.each(CASES)('%s create, get, update (%s)', async (_noun, format, family) => {
    const created = await cli(family.noun, 'create', '-o', format, ...family.createArgs(format));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const record = readRecord(format, created.stdout);
    expect(record).toMatchObject(family.created(format));
    const id = String(record.id);

    const got = await cli(family.noun, 'get', id, '-o', format);
    expect(got.code).toBe(0);
    expect(readRecord(format, got.stdout)).toMatchObject({ id, ...family.got(format) });

    const updated = await cli(family.noun, 'update', id, '-o', format, ...family.updateArgs);
    expect(updated.stderr).toBe('');
    expect(updated.code).toBe(0);
    expect(readRecord(format, updated.stdout)).toMatchObject({ id, ...family.updated(format) });
  });
});
