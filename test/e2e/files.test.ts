import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { isolatedEnv } from '../helpers/env.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const BIG = 50 * 1024 * 1024;

interface FileRecord {
  id: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  attachments: Array<{ targetType: string; targetId: string }>;
}

let mock: MockServer;
let env: Record<string, string | undefined>;
let dir: string;
let propertyId: string;
let assignmentId: string;
let big: { path: string; sha256: string; id: string };
const cli = (...args: string[]) => run(args, { env });

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function sha256OfFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

async function upload(path: string, ...args: string[]): Promise<FileRecord> {
  const result = await cli('files', 'upload', path, '-o', 'json', ...args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as FileRecord;
}

/** Queue a fault for the next matching request (the mock's admin route, outside /api). */
const queueFault = (path: string, fault: string) => adminOf(mock).queueFault({ path, method: 'GET', fault, count: 1 });

function freshDir(): string {
  const path = join(dir, `out-${randomBytes(4).toString('hex')}`);
  mkdirSync(path);
  return path;
}

beforeAll(async () => {
  mock = await startMock({ records: 4 });
  env = { ...isolatedEnv(), ...mock.env };
  dir = tempDir('appraisal-files-');
  writeFileSync(join(dir, 'report.pdf'), '%PDF-1.4\nappraisal report for Harbor Point\n%%EOF\n');
  writeFileSync(join(dir, 'notes.txt'), 'roof: fair\nHVAC: replaced 2019\n');
  mkdirSync(join(dir, 'a-directory'));
  const [props, assignments] = await Promise.all([cli('props', 'list', '-o', 'json'), cli('assignments', 'list', '-o', 'json')]);
  propertyId = (JSON.parse(props.stdout) as Array<{ id: string }>)[0]!.id;
  assignmentId = (JSON.parse(assignments.stdout) as Array<{ id: string }>)[0]!.id;
});
afterAll(() => mock?.stop());

describe('files upload', () => {
  it('takes --name and --content-type, and a path relative to the working directory', async () => {
    const result = await run(
      [
        'files',
        'upload',
        'notes.txt',
        '--name',
        'inspection notes.md',
        '--content-type',
        'text/markdown',
        '--assignment',
        assignmentId,
        '-o',
        'json',
      ],
      { env, cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      name: 'inspection notes.md',
      contentType: 'text/markdown',
      attachments: [{ targetType: 'assignment', targetId: assignmentId }],
    });
  });

  it.each([
    ['a missing file', ['missing.pdf'], 'error: no such file: missing.pdf\n'],
    ['a directory', ['a-directory'], 'error: a-directory is a directory; upload takes one file\n'],
    ['a bad --property', ['notes.txt', '--property', '12'], 'error: --property must be a UUID, got "12"\n'],
  ])('refuses %s before any request (exit 2)', async (_, args, stderr) => {
    // A base URL where nothing listens: any request would end in exit 3, not 2.
    const result = await run(['files', 'upload', ...args], { env: { ...env, APPRAISAL_BASE_URL: 'https://127.0.0.1:9' }, cwd: dir });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr });
  });
});

describe('files list, get, attach, delete', () => {
  it('filters by --property and --assignment', async () => {
    const file = await upload(join(dir, 'notes.txt'), '--assignment', assignmentId);
    const byAssignment = JSON.parse((await cli('files', 'list', '--assignment', assignmentId, '-o', 'json')).stdout) as FileRecord[];
    expect(byAssignment.map((f) => f.id)).toContain(file.id);
    expect(byAssignment.every((f) => f.attachments.some((a) => a.targetType === 'assignment' && a.targetId === assignmentId))).toBe(true);
    const byProperty = JSON.parse((await cli('files', 'list', '--property', propertyId, '-o', 'json')).stdout) as FileRecord[];
    expect(byProperty.map((f) => f.id)).not.toContain(file.id);
  });

  it('attach to a property and an assignment', async () => {
    const file = await upload(join(dir, 'notes.txt'));
    const toProperty = await cli('files', 'attach', file.id, '--property', propertyId, '-o', 'json');
    expect(toProperty.stderr).toBe('');
    expect(toProperty.code).toBe(0);
    expect(JSON.parse(toProperty.stdout)).toMatchObject({ id: file.id });
    const toAssignment = await cli('files', 'attach', file.id, '--assignment', assignmentId);
    expect(toAssignment.code).toBe(0);
    const got = JSON.parse((await cli('files', 'get', file.id, '-o', 'json')).stdout) as FileRecord;
    expect(got.attachments).toEqual([
      { targetType: 'property', targetId: propertyId },
      { targetType: 'assignment', targetId: assignmentId },
    ]);
  });

  it('attach needs exactly one target', async () => {
    const file = await upload(join(dir, 'notes.txt'));
    const neither = await cli('files', 'attach', file.id);
    expect(neither).toMatchObject({ code: 2, stderr: 'error: files attach needs exactly one of --property ID and --assignment ID\n' });
    const unknown = await cli('files', 'attach', file.id, '--property', '00000000-0000-4000-8000-000000000000');
    expect(unknown.code).toBe(7);
  });

  it('delete prints nothing on stdout (it takes no -o), then the file is gone', async () => {
    const file = await upload(join(dir, 'notes.txt'));
    const result = await cli('files', 'delete', file.id, '--yes');
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain(`Deleted file ${file.id}`);
    expect((await cli('files', 'get', file.id)).code).toBe(6);
  });
});

describe('files download', () => {
  it('writes --out atomically and says what was verified', async () => {
    const file = await upload(join(dir, 'report.pdf'));
    const out = freshDir();
    const result = await run(['files', 'download', file.id, '--out', 'copy.pdf'], { env, cwd: out });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(`Saved file ${file.id} to copy.pdf (${file.size} bytes, sha256 verified)\n`);
    expect(readFileSync(join(out, 'copy.pdf'))).toEqual(readFileSync(join(dir, 'report.pdf')));
    expect(readdirSync(out)).toEqual(['copy.pdf']);
  });

  it('streams to stdout when it is not a terminal', async () => {
    const file = await upload(join(dir, 'notes.txt'));
    const result = await cli('files', 'download', file.id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(readFileSync(join(dir, 'notes.txt'), 'utf8'));
  });

  it('a seeded file downloads with its recorded sha256', async () => {
    const seeded = (JSON.parse((await cli('files', 'list', '-o', 'json')).stdout) as FileRecord[])[0]!;
    const out = freshDir();
    const result = await cli('files', 'download', seeded.id, '--out', join(out, seeded.name));
    expect(result.code, result.stderr).toBe(0);
    expect(sha256(readFileSync(join(out, seeded.name)))).toBe(seeded.sha256);
  });

  it('an unknown file is a 404 (exit 6) and leaves nothing', async () => {
    const out = freshDir();
    const result = await cli('files', 'download', '00000000-0000-4000-8000-000000000000', '--out', join(out, 'x.pdf'));
    expect(result.code).toBe(6);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('a 50 MB file', () => {
  beforeAll(async () => {
    const path = join(dir, 'survey.tif');
    const data = randomBytes(BIG);
    writeFileSync(path, data);
    const record = await upload(path, '--assignment', assignmentId);
    big = { path, sha256: sha256(data), id: record.id };
    expect(record).toMatchObject({ size: BIG, sha256: big.sha256, contentType: 'image/tiff' });
  });

  it('round-trips with a matching sha256', async () => {
    const out = freshDir();
    const result = await cli('files', 'download', big.id, '--out', join(out, 'survey.tif'));
    expect(result.code, result.stderr).toBe(0);
    expect(await sha256OfFile(join(out, 'survey.tif'))).toBe(big.sha256);
    expect(readdirSync(out)).toEqual(['survey.tif']);
  });

  it('a connection reset mid-body is exit 3 and leaves no file, no temp file', async () => {
    const out = freshDir();
    await queueFault(`/api/files/${big.id}/content`, 'reset-mid-body');
    const result = await cli('files', 'download', big.id, '--out', join(out, 'survey.tif'));
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    expect(readdirSync(out)).toEqual([]);
  });

  it('Ctrl-C mid-transfer is exit 130 and leaves no file, no temp file', async () => {
    // In process, Ctrl-C is the run's abort signal (a real SIGINT: interrupt.test.ts).
    const out = freshDir();
    const watcher = watch(out);
    const interrupt = new AbortController();
    watcher.on('change', (_, name) => String(name).endsWith('.part') && interrupt.abort());
    try {
      const result = await run(['files', 'download', big.id, '--out', join(out, 'survey.tif')], { env, signal: interrupt.signal });
      expect(interrupt.signal.aborted, 'the download was interrupted, not finished').toBe(true);
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toMatch(/^error: interrupted$/m);
    } finally {
      watcher.close();
    }
    expect(readdirSync(out)).toEqual([]);
  });
});
