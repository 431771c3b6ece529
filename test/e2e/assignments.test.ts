// Lists and create/get/update in every format: formats.test.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

interface Assignment {
  id: string;
  status: string;
  clientId: string;
  propertyIds: string[];
}

let mock: MockServer;
let env: Record<string, string | undefined>;
let seeded: Assignment[];
let clientId: string;
let propertyIds: string[];
const cli = (...args: string[]) => run(args, { env });

async function json<T>(...args: string[]): Promise<T> {
  const result = await cli(...args, '-o', 'json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

function createAssignment(format = 'json') {
  return cli(
    'assignments',
    'create',
    '-o',
    format,
    '-f',
    `clientId=${clientId}`,
    '-f',
    'reportType=appraisal_report',
    '-f',
    'dueDate=2026-03-31',
    '-F',
    'fee.amount=3500',
    '-f',
    'fee.currency=USD',
  );
}

async function linked(assignmentId: string): Promise<string[]> {
  return (await json<Array<{ id: string }>>('assignments', 'properties', assignmentId)).map((p) => p.id);
}

beforeAll(async () => {
  mock = await startMock({ records: 12 });
  env = { ...isolatedEnv(), ...mock.env };
  [seeded, propertyIds] = await Promise.all([
    json<Assignment[]>('assignments', 'list'),
    json<Array<{ id: string }>>('props', 'list').then((props) => props.map((p) => p.id)),
  ]);
  clientId = seeded[0]!.clientId;
});
afterAll(() => mock?.stop());

describe('assignments', () => {
  it('filters by --status, --client and --property', async () => {
    const status = seeded[0]!.status;
    const byStatus = await json<Assignment[]>('assignments', 'list', '--status', status);
    expect(byStatus.length).toBe(seeded.filter((a) => a.status === status).length);
    expect(byStatus.every((a) => a.status === status)).toBe(true);
    const byClient = await json<Assignment[]>('assignments', 'list', '--client', clientId);
    expect(byClient.map((a) => a.id)).toEqual(seeded.filter((a) => a.clientId === clientId).map((a) => a.id));
    const propertyId = seeded[0]!.propertyIds[0]!;
    const byProperty = await json<Assignment[]>('assignments', 'list', '--property', propertyId);
    expect(byProperty.map((a) => a.id)).toEqual(seeded.filter((a) => a.propertyIds.includes(propertyId)).map((a) => a.id));
    const bad = await cli('assignments', 'list', '--property', 'nope');
    expect(bad).toMatchObject({ code: 2, stderr: 'error: --property must be a UUID, got "nope"\n' });
  });

  it('delete prints nothing on stdout (it takes no -o), then the assignment is gone', async () => {
    const id = (JSON.parse((await createAssignment()).stdout) as { id: string }).id;
    const result = await cli('assignments', 'delete', id, '--yes');
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain(`Deleted assignment ${id}`);
    expect((await cli('assignments', 'get', id)).code).toBe(6);
  });

  it('the service decides status changes: its 409 message reaches the user (exit 7)', async () => {
    const id = (JSON.parse((await createAssignment()).stdout) as { id: string }).id;
    expect((await cli('assignments', 'update', id, '-f', 'status=completed')).code).toBe(0);
    const result = await cli('assignments', 'update', id, '-f', 'status=draft');
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr).toMatch(/is completed and cannot go back to draft/);
  });

  // Link and unlink print nothing on stdout whatever -o says (the output layer is shared by every
  // format; one round trip covering two formats is enough — it used to run once per format).
  it('link and unlink a property (nothing on stdout with -o csv or -o table)', async () => {
    const assignmentId = (JSON.parse((await createAssignment()).stdout) as { id: string }).id;
    const propertyId = propertyIds[0]!;
    const link = await cli('assignments', 'link', assignmentId, propertyId, '-o', 'csv');
    expect(link).toMatchObject({ code: 0, stdout: '', stderr: `Linked property ${propertyId} to assignment ${assignmentId}\n` });
    expect(await linked(assignmentId)).toEqual([propertyId]);
    const byProperty = await json<Assignment[]>('assignments', 'list', '--property', propertyId);
    expect(byProperty.map((a) => a.id)).toContain(assignmentId);

    const unlink = await cli('assignments', 'unlink', assignmentId, propertyId, '-o', 'table');
    expect(unlink).toMatchObject({ code: 0, stdout: '', stderr: `Unlinked property ${propertyId} from assignment ${assignmentId}\n` });
    expect(await linked(assignmentId)).toEqual([]);
  });

  it('link --out FILE when the service answers 204: no file, and a line saying why', async () => {
    const assignmentId = (JSON.parse((await createAssignment()).stdout) as { id: string }).id;
    const out = join(tempDir('link-out-'), 'linked.json');
    const link = await cli('assignments', 'link', assignmentId, propertyIds[0]!, '--out', out);
    expect(link.code, link.stderr).toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(link.stderr).toContain(
      `nothing written to ${out}: the service sent no record back (see it with \`appraisal assignments get ${assignmentId}\`)`,
    );
  });

  it('linking an unknown property is a 404 (exit 6)', async () => {
    const result = await cli('assignments', 'link', seeded[0]!.id, '00000000-0000-4000-8000-000000000000');
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
  });
});
