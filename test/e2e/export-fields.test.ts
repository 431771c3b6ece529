// `appraisal export --fields FAMILY=a,b.c` (issue 25 §1): the fields kept per family, in every format a
// snapshot is written in (ndjson, json, csv: its header), recorded in the manifest; a family not named
// keeps every field; the cells are the full snapshot's values. Bad lists are one error line (exit 2).
// A resumed run with other fields is refused. Progress names the file where the snapshot puts it,
// not the hidden sibling it is built in (issue 25 §5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

type Row = Record<string, unknown>;
let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const cli = (args: string[]) => run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1' }, cwd: scratch });
const ndjson = (path: string): Row[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Row);
const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(scratch, dir, 'manifest.json'), 'utf8')) as {
    families: Array<{ family: string; fields?: string[] }>;
  };
const FAMILIES = ['--families', 'props,clients,contacts'];
const FIELDS = ['--fields', 'props=id,name,address.city', '--fields', 'clients=id,name'];

/** The full snapshot's records (every field), by family. */
let full: Record<string, Row[]>;

beforeAll(async () => {
  mock = await startMock({ records: 12, seed: 5, http: true });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('export-fields-');
  const whole = await cli(['export', '--dir', 'full', ...FAMILIES]);
  expect(whole.code, whole.stderr).toBe(0);
  full = Object.fromEntries(['props', 'clients', 'contacts'].map((family) => [family, ndjson(join(scratch, 'full', `${family}.ndjson`))]));
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

/** What --fields props=id,name,address.city keeps of a full record. */
const slimProp = (record: Row) => ({ id: record.id, name: record.name, address: { city: (record.address as Row).city } });
const slimClient = (record: Row) => ({ id: record.id, name: record.name });

describe('export --fields FAMILY=list', () => {
  it('ndjson and json hold only the named fields of the named families, the others whole; the manifest records them', async () => {
    for (const format of ['ndjson', 'json'] as const) {
      const dir = `slim-${format}`;
      const done = await cli(['export', '--dir', dir, ...FAMILIES, ...FIELDS, '-o', format]);
      expect(done.code, done.stderr).toBe(0);
      const read = (family: string) => {
        const path = join(scratch, dir, `${family}.${format}`);
        return format === 'json' ? (JSON.parse(readFileSync(path, 'utf8')) as Row[]) : ndjson(path);
      };
      expect(read('props')).toEqual(full.props!.map(slimProp));
      expect(read('clients')).toEqual(full.clients!.map(slimClient));
      expect(read('contacts')).toEqual(full.contacts);
      expect(manifestOf(dir).families.map(({ family, fields }) => ({ family, fields }))).toEqual([
        { family: 'props', fields: ['id', 'name', 'address.city'] },
        { family: 'clients', fields: ['id', 'name'] },
        { family: 'contacts', fields: undefined },
      ]);
      // A family not named has no `fields` key at all (not `"fields": null`), as docs/EXPORTS.md says.
      expect(manifestOf(dir).families[2]).not.toHaveProperty('fields');
    }
  });

  it('csv: the header is the named fields, each cell the full record’s value; a family not named has every column', async () => {
    const done = await cli([
      'export',
      '--dir',
      'slim-csv',
      ...FAMILIES,
      '-o',
      'csv',
      '--fields',
      'props=id,name,address.city,clients=id,name',
    ]);
    expect(done.code, done.stderr).toBe(0);
    const csv = (family: string) => parse(readFileSync(join(scratch, 'slim-csv', `${family}.csv`), 'utf8'), { columns: true }) as Row[];
    const props = csv('props');
    expect(Object.keys(props[0]!)).toEqual(['id', 'name', 'address.city']);
    expect(props).toEqual(
      full.props!.map((record) => ({ id: record.id, name: record.name, 'address.city': (record.address as Row).city })),
    );
    expect(csv('clients')).toEqual(full.clients!.map(slimClient));
    const contacts = csv('contacts');
    expect(Object.keys(contacts[0]!)).toEqual(Object.keys(full.contacts![0]!));
    expect(contacts.map((row) => row.clientId)).toEqual(full.contacts!.map((record) => record.clientId));
    // One --fields with both families (a word with = starts a family) is the same as two.
    expect(manifestOf('slim-csv').families[0]!.fields).toEqual(['id', 'name', 'address.city']);
    expect(manifestOf('slim-csv').families[1]!.fields).toEqual(['id', 'name']);
  });

  it('a field no record of a family has is a warning naming the kind of record; the rest is exported', async () => {
    const done = await cli([
      'export',
      '--dir',
      'typo',
      '--families',
      'props,clients',
      '--fields',
      'props=id,nosuch',
      '--fields',
      'clients=id',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('warning: --fields: no property has nosuch\n');
    expect(done.stderr).not.toContain('no client has');
    expect(ndjson(join(scratch, 'typo', 'props.ndjson'))).toEqual(full.props!.map((record) => ({ id: record.id })));
  });

  it('progress names the final path of each file, never the hidden sibling it is built in', async () => {
    const done = await cli(['export', '--dir', 'named', '--families', 'props,clients', '--split-rows', '5']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).not.toContain('export-partial');
    expect(done.stderr).toContain(
      'Wrote 12 properties to named/props-0001.ndjson … props-0003.ndjson (3 parts, manifest named/props.ndjson.manifest.json)',
    );
    const whole = await cli(['export', '--dir', 'named-whole', '--families', 'props,clients']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toBe(
      'Wrote 12 properties to named-whole/props.ndjson\nWrote 12 clients to named-whole/clients.ndjson\n' +
        'Wrote a snapshot of 12 properties, 12 clients (24 records) to named-whole\n',
    );
  });

  it.each([
    [['--fields', 'id,name'], '--fields id: a snapshot holds several families; say whose fields these are'],
    [['--fields', 'nosuch=id'], '--fields: no family "nosuch"'],
    [['--fields', 'files=id'], '--fields names files, which this snapshot does not hold'],
    [['--fields', 'props='], '--fields props= needs at least one field name'],
    [['--fields', 'props=id,address..city'], '--fields: "address..city" is not a field path'],
  ])('%j is refused before anything is read or written (exit 2)', async (flags, message) => {
    await admin.clearRequests();
    const refused = await cli(['export', '--dir', 'refused', ...FAMILIES, ...flags]);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr.split('\n')[0]).toContain(`error: ${message}`);
    expect(await admin.apiRequests()).toEqual([]);
    expect(readdirSync(scratch).filter((name) => name.includes('refused'))).toEqual([]);
  });

  it('--resume with other --fields than the interrupted run is refused; with the same ones it finishes', async () => {
    const common = ['export', '--dir', 'resumed', ...FAMILIES, '--page-size', '5', '--concurrency', '1'];
    const args = [...common, ...FIELDS];
    await admin.queueFaults([{ path: '/api/clients', query: { page: '2' }, fault: 'status=503', count: 10 }]);
    const failed = await cli(args);
    await admin.clearFaults();
    expect(failed.code).toBe(8);
    const other = await cli([...common, '--fields', 'props=id,name,address.city,clients=id', '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('is another export (fields was {"props":["id","name","address.city"],"clients":["id","name"]}');
    const resumed = await cli([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(existsSync(join(scratch, '.resumed.export-partial'))).toBe(false);
    expect(ndjson(join(scratch, 'resumed', 'clients.ndjson'))).toEqual(full.clients!.map(slimClient));
  });
});
