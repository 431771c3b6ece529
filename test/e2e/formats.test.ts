// Every output format for every family, as one table: each listing (default columns, the right
// records) and create → get → update, each read back in json, ndjson, csv and table. One mock, one
// parametrised test over families × formats, instead of the same test repeated in each family's file.
// Files are made by `upload` and changed by `attach`; `ref enums` is one object, shown as rows.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { FORMATS, readList, readRecord, type Format, type ListOutput } from '../helpers/output-formats.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
const cli = (...args: string[]) => run(args, { env });

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
  fileIds: [] as string[],
  propertyId: '',
  /** The first seeded assignment and the properties linked to it. */
  assignment: { id: '', propertyIds: [] as string[] },
  enums: {} as Record<string, string[]>,
  /** A file to upload. */
  report: '',
};

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const structured = (format: Format) => format === 'json' || format === 'ndjson';

/** A command that prints several records (or, for ref enums, one object shown as rows). */
interface Listing {
  /** The command line before -o. */
  command(): string[];
  /** The table's header; undefined where the output has none. */
  columns: string[] | undefined;
  /** The csv header (every field, in the published schema's order) when it is not the table's. */
  csvColumns?: string[];
  /** Read the output back (default: readList). */
  read?(format: Format, stdout: string): ListOutput;
  /** The listing's records are the right ones. */
  checkList(records: Array<Record<string, unknown>>, format: Format): void;
}

interface Family {
  noun: string;
  columns: string[];
  /** Every field, as the csv has them. */
  csvColumns: string[];
  listArgs(): string[];
  /** The list's records are the right ones. */
  checkList(records: Array<Record<string, unknown>>, format: Format): void;
  /** The verbs that make and change a record (create and update unless said). */
  verbs?: { create: string; update: string };
  createArgs(format: Format): string[];
  /** What the created record shows (structured formats nest, csv and table flatten to dotted names). */
  created(format: Format): Record<string, unknown>;
  /** Checks toMatchObject cannot make. */
  checkCreated?(record: Record<string, unknown>, format: Format): void;
  /** What `get` shows besides the id. */
  got(format: Format): Record<string, unknown>;
  updateArgs: string[] | (() => string[]);
  updated(format: Format): Record<string, unknown>;
}

const PROPERTY_FIELDS = [
  'id',
  'name',
  'address.line1',
  'address.line2',
  'address.city',
  'address.region',
  'address.postalCode',
  'address.country',
  'propertyType',
  'parcelNumber',
  'yearBuilt',
  'grossBuildingArea',
  'landArea',
  'latitude',
  'longitude',
  'createdAt',
  'updatedAt',
];

const FAMILIES: Family[] = [
  {
    noun: 'clients',
    columns: ['id', 'name', 'clientType', 'email', 'phone', 'address.city'],
    csvColumns: [
      'id',
      'name',
      'clientType',
      'email',
      'phone',
      'address.line1',
      'address.line2',
      'address.city',
      'address.region',
      'address.postalCode',
      'address.country',
      'createdAt',
      'updatedAt',
    ],
    listArgs: () => [],
    checkList: (records) => {
      expect(seed.clientIds.length).toBeGreaterThanOrEqual(5);
      expect(records.map((r) => r.id)).toEqual(seed.clientIds);
    },
    createArgs: (format) => [
      '--data',
      JSON.stringify({
        name: `Harbor Bank ${format}`,
        clientType: 'lender',
        address: { line1: '1 Pier Rd', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
      }),
    ],
    created: (format) =>
      structured(format)
        ? { name: `Harbor Bank ${format}`, address: { city: 'Boston' } }
        : { name: `Harbor Bank ${format}`, 'address.city': 'Boston' },
    got: (format) => ({ name: `Harbor Bank ${format}` }),
    updateArgs: ['-f', 'phone=+1-617-555-0100'],
    updated: (format) => ({ phone: '+1-617-555-0100', name: `Harbor Bank ${format}` }),
  },
  {
    noun: 'contacts',
    columns: ['id', 'firstName', 'lastName', 'title', 'email', 'phone'],
    csvColumns: ['id', 'clientId', 'firstName', 'lastName', 'email', 'phone', 'title', 'createdAt', 'updatedAt'],
    listArgs: () => ['--client', seed.contactClientId],
    checkList: (records, format) => {
      // That client's contacts only.
      expect(records.map((r) => r.firstName).sort()).toEqual(['Dana', 'Sam']);
      if (format === 'json') expect(records.every((r) => r.clientId === seed.contactClientId)).toBe(true);
    },
    createArgs: (format) => [
      '--client',
      seed.contactClientId,
      '-f',
      `firstName=Lee ${format}`,
      '-f',
      'lastName=Park',
      '-f',
      'email=lee@example.com',
    ],
    created: (format) => ({ firstName: `Lee ${format}`, lastName: 'Park', email: 'lee@example.com' }),
    got: (format) => ({ firstName: `Lee ${format}` }),
    updateArgs: ['-f', 'title=Chief Appraiser'],
    updated: () => ({ title: 'Chief Appraiser' }),
  },
  {
    noun: 'assignments',
    columns: ['id', 'number', 'status', 'clientId', 'dueDate', 'fee.amount', 'fee.currency', 'reportType'],
    csvColumns: [
      'id',
      'number',
      'status',
      'clientId',
      'propertyIds',
      'dueDate',
      'fee.amount',
      'fee.currency',
      'reportType',
      'intendedUse',
      'createdAt',
      'updatedAt',
    ],
    listArgs: () => [],
    checkList: (records) => expect(records.map((r) => r.id)).toEqual(seed.assignmentIds),
    createArgs: () => [
      '-f',
      `clientId=${seed.assignmentClientId}`,
      '-f',
      'reportType=appraisal_report',
      '-f',
      'dueDate=2026-03-31',
      '-F',
      'fee.amount=3500',
      '-f',
      'fee.currency=USD',
    ],
    created: () => ({ clientId: seed.assignmentClientId, reportType: 'appraisal_report', dueDate: '2026-03-31', status: 'draft' }),
    got: () => ({ clientId: seed.assignmentClientId }),
    updateArgs: ['-f', 'status=accepted'],
    updated: () => ({ status: 'accepted' }),
  },
  {
    noun: 'files',
    columns: ['id', 'name', 'contentType', 'size', 'sha256', 'createdAt'],
    csvColumns: ['id', 'name', 'contentType', 'size', 'sha256', 'attachments', 'createdAt', 'updatedAt'],
    listArgs: () => [],
    checkList: (records) => expect(records.map((r) => r.id)).toEqual(seed.fileIds),
    verbs: { create: 'upload', update: 'attach' },
    createArgs: () => [seed.report, '--property', seed.propertyId],
    created: (format) => ({
      name: 'report.pdf',
      contentType: 'application/pdf',
      ...(format === 'json' ? { attachments: [{ targetType: 'property', targetId: seed.propertyId }] } : {}),
    }),
    checkCreated: (record) => {
      const local = readFileSync(seed.report);
      expect(String(record.size)).toBe(String(local.length));
      // The table cuts long cells; the whole hash is in every other format.
      expect(sha256(local).startsWith(String(record.sha256).replace(/…$/, ''))).toBe(true);
    },
    got: () => ({ name: 'report.pdf', contentType: 'application/pdf' }),
    updateArgs: () => ['--assignment', seed.assignment.id],
    updated: (format) =>
      format === 'json'
        ? {
            attachments: [
              { targetType: 'property', targetId: seed.propertyId },
              { targetType: 'assignment', targetId: seed.assignment.id },
            ],
          }
        : { name: 'report.pdf' },
  },
];

/** Every family's list, and the listings that are not a family's list. */
const LISTINGS: Array<[string, Listing]> = [
  ...FAMILIES.map((family): [string, Listing] => [
    `${family.noun} list`,
    {
      command: () => [family.noun, 'list', ...family.listArgs()],
      columns: family.columns,
      csvColumns: family.csvColumns,
      checkList: family.checkList,
    },
  ]),
  [
    'assignments properties ID',
    {
      command: () => ['assignments', 'properties', seed.assignment.id],
      columns: ['id', 'name', 'propertyType', 'address.line1', 'address.city', 'address.region', 'address.postalCode', 'updatedAt'],
      csvColumns: PROPERTY_FIELDS,
      checkList: (records) => expect(records.map((r) => r.id)).toEqual(seed.assignment.propertyIds),
    },
  ],
  [
    'ref designations',
    {
      command: () => ['ref', 'designations'],
      columns: ['code', 'name'],
      csvColumns: ['id', 'code', 'name', 'createdAt', 'updatedAt'],
      checkList: (records) => {
        expect(records.map((r) => r.code)).toEqual(expect.arrayContaining(['MAI', 'SRA']));
        expect(records.find((r) => r.code === 'MAI')?.name).toBe('Member, Appraisal Institute');
      },
    },
  ],
  [
    'ref enums',
    {
      command: () => ['ref', 'enums'],
      columns: ['name', 'values'],
      // json prints the service's object as it is; a table shows one row per enum with all its values.
      read: (format, stdout) => {
        if (format === 'json') {
          const value = JSON.parse(stdout) as Record<string, string[]>;
          return { columns: undefined, records: Object.entries(value).map(([name, values]) => ({ name, values })) };
        }
        if (format === 'table')
          return { columns: undefined, records: Object.entries(readRecord('table', stdout)).map(([name, values]) => ({ name, values })) };
        return readList(format, stdout);
      },
      checkList: (records, format) => {
        expect(records.map((r) => r.name)).toEqual(Object.keys(seed.enums));
        expect(Object.keys(seed.enums)).toEqual(
          expect.arrayContaining(['propertyTypes', 'assignmentStatuses', 'reportTypes', 'clientTypes']),
        );
        expect(seed.enums.assignmentStatuses).toContain('completed');
        for (const { name, values } of records) {
          const expected = seed.enums[String(name)]!;
          // Long lists wrap onto continuation lines in a table; compare without the white space wrapping moved.
          if (format === 'table') expect(String(values).replace(/\s/g, '')).toBe(expected.join(', ').replace(/\s/g, ''));
          else expect(values).toEqual(format === 'csv' ? expected.join(', ') : expected);
        }
      },
    },
  ],
];

beforeAll(async () => {
  mock = await startMock({ records: 12 });
  env = { ...isolatedEnv(), ...mock.env };
  const holder = await json<{ id: string }>('clients', 'create', '-f', 'name=Contact Holding Bank', '-f', 'clientType=lender');
  for (const firstName of ['Dana', 'Sam'])
    await json('contacts', 'create', '--client', holder.id, '-f', `firstName=${firstName}`, '-f', 'lastName=Reyes');
  // The lists as they stand before the tests (which create records only after every list test).
  const [assignments, clients] = await Promise.all([
    json<Array<{ id: string; clientId: string; propertyIds: string[] }>>('assignments', 'list'),
    json<Array<{ id: string }>>('clients', 'list'),
  ]);
  seed.assignmentIds = assignments.map((a) => a.id);
  seed.assignmentClientId = assignments[0]!.clientId;
  seed.clientIds = clients.map((c) => c.id);
  seed.contactClientId = holder.id;
  const [files, props, enums] = await Promise.all([
    json<Array<{ id: string }>>('files', 'list'),
    json<Array<{ id: string }>>('props', 'list'),
    json<Record<string, string[]>>('ref', 'enums'),
  ]);
  seed.fileIds = files.map((file) => file.id);
  seed.propertyId = props[0]!.id;
  seed.assignment = { id: assignments[0]!.id, propertyIds: assignments[0]!.propertyIds };
  seed.enums = enums;
  seed.report = join(tempDir('appraisal-formats-'), 'report.pdf');
  writeFileSync(seed.report, '%PDF-1.4\nappraisal report for Harbor Point\n%%EOF\n');
});
afterAll(() => mock?.stop());

const LIST_CASES = LISTINGS.flatMap(([name, listing]) => FORMATS.map((format) => [name, format, listing] as const));
const CASES = FAMILIES.flatMap((family) => FORMATS.map((format) => [family.noun, format, family] as const));

describe('every family in every format', () => {
  it.each(LIST_CASES)('%s (%s) shows the right records with the default columns', async (_name, format, listing) => {
    const result = await cli(...listing.command(), '-o', format);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { columns, records } = (listing.read ?? readList)(format, result.stdout);
    if (columns) expect(columns).toEqual(format === 'csv' ? (listing.csvColumns ?? listing.columns) : listing.columns);
    listing.checkList(records, format);
  });

  it.each(CASES)('%s create, get, update (%s)', async (_noun, format, family) => {
    const verbs = family.verbs ?? { create: 'create', update: 'update' };
    const created = await cli(family.noun, verbs.create, '-o', format, ...family.createArgs(format));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const record = readRecord(format, created.stdout);
    expect(record).toMatchObject(family.created(format));
    family.checkCreated?.(record, format);
    const id = String(record.id);

    const got = await cli(family.noun, 'get', id, '-o', format);
    expect(got.code).toBe(0);
    expect(got.stderr).toBe('');
    expect(readRecord(format, got.stdout)).toMatchObject({ id, ...family.got(format) });

    const updateArgs = typeof family.updateArgs === 'function' ? family.updateArgs() : family.updateArgs;
    const updated = await cli(family.noun, verbs.update, id, '-o', format, ...updateArgs);
    expect(updated.stderr).toBe('');
    expect(updated.code).toBe(0);
    expect(readRecord(format, updated.stdout)).toMatchObject({ id, ...family.updated(format) });
  });
});
