import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DownloadResponse } from '../../../../src/core/api-client.js';
import { ContractError, UsageError } from '../../../../src/core/errors.js';
import { runDownload } from '../../../../src/commands/files/download.js';
import type { FakeContextOptions } from '../../../helpers/fake-context.js';
import { apiContext } from '../fake-api.js';
import { tempDir } from '../../../helpers/temp.js';

const FILE_ID = '6b1f5f0e-3c1a-4f7e-9d3b-2a1c0e9f8d7c';
const DATA = Buffer.from('%PDF-1.4 appraisal report');
const SHA = createHash('sha256').update(DATA).digest('hex');

function downloading(record: Record<string, unknown>, options: FakeContextOptions = {}, contentLength: number | undefined = DATA.length) {
  return apiContext(
    {
      get: () => ({ id: FILE_ID, name: 'report.pdf', ...record }),
      download: (): DownloadResponse => ({
        body: Readable.from([DATA]) as unknown as DownloadResponse['body'],
        contentLength,
        contentType: 'application/pdf',
      }),
    },
    options,
  );
}

describe('files download', () => {
  it('writes to --out atomically after checking size and sha256', async () => {
    const dir = tempDir('appraisal-dl-');
    const fake = downloading({ size: DATA.length, sha256: SHA }, { cwd: dir, globals: { out: 'report.pdf' } });
    await runDownload(fake.ctx, FILE_ID);
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /api/files/${FILE_ID}`, `DOWNLOAD /api/files/${FILE_ID}/content`]);
    expect(readFileSync(join(dir, 'report.pdf'))).toEqual(DATA);
    expect(readdirSync(dir)).toEqual(['report.pdf']);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe(`Saved file ${FILE_ID} to report.pdf (${DATA.length} bytes, sha256 verified)\n`);
  });

  it('streams to stdout when it is not a terminal', async () => {
    const fake = downloading({ size: DATA.length, sha256: SHA });
    await runDownload(fake.ctx, FILE_ID);
    expect(fake.stdout()).toBe(DATA.toString());
  });

  it('refuses a terminal before any request', async () => {
    const fake = downloading({}, { stdoutIsTTY: true });
    const error = await runDownload(fake.ctx, FILE_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('refusing to write binary data to a terminal; use --out PATH');
    expect(fake.calls).toEqual([]);
  });

  it('refuses a bad id or an --out in a missing directory before any request', async () => {
    const bad = downloading({});
    await expect(runDownload(bad.ctx, 'nope')).rejects.toThrow('file id must be a UUID, got "nope"');
    const missing = downloading({}, { globals: { out: '/nonexistent-dir/x.pdf' } });
    await expect(runDownload(missing.ctx, FILE_ID)).rejects.toBeInstanceOf(UsageError);
    expect([...bad.calls, ...missing.calls]).toEqual([]);
  });

  it('fails at once when the announced length disagrees with the record', async () => {
    const dir = tempDir('appraisal-dl-');
    const fake = downloading({ size: 999 }, { cwd: dir, globals: { out: 'x.pdf' } });
    const error = await runDownload(fake.ctx, FILE_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toBe(`the service sends ${DATA.length} bytes for file ${FILE_ID}, but its record says 999`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves no file when the sha256 does not match', async () => {
    const dir = tempDir('appraisal-dl-');
    const fake = downloading({ sha256: 'e'.repeat(64) }, { cwd: dir, globals: { out: 'x.pdf' } }, undefined);
    await expect(runDownload(fake.ctx, FILE_ID)).rejects.toBeInstanceOf(ContractError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says when the record has no sha256 to check against', async () => {
    const dir = tempDir('appraisal-dl-');
    const fake = downloading({}, { cwd: dir, globals: { out: 'x.pdf' } });
    await runDownload(fake.ctx, FILE_ID);
    expect(fake.stderr()).toContain(`sha256 ${SHA}; the file's record has none to check it against`);
  });
});
