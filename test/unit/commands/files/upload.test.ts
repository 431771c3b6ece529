import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadOptions } from '../../../../src/core/api-client.js';
import { ContractError, UsageError } from '../../../../src/core/errors.js';
import { runUpload } from '../../../../src/commands/files/upload.js';
import { apiContext } from '../fake-api.js';
import { tempDir } from '../../../helpers/temp.js';

const dir = tempDir('appraisal-up-');
writeFileSync(join(dir, 'report.pdf'), 'pdf bytes');
writeFileSync(join(dir, 'blob'), 'opaque');
const SHA = 'c'.repeat(64);
const FILE_ID = '6b1f5f0e-3c1a-4f7e-9d3b-2a1c0e9f8d7c';
const PROPERTY_ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

function uploadAnswering(record: Record<string, unknown>) {
  let sent: UploadOptions | undefined;
  const fake = apiContext(
    {
      upload: (options) => {
        sent = options;
        return { record: { id: FILE_ID, ...record }, sha256: SHA, size: 9 };
      },
    },
    { cwd: dir },
  );
  return { ...fake, sent: () => sent };
}

describe('files upload', () => {
  it('streams the file with a guessed content type and prints the stored record', async () => {
    const fake = uploadAnswering({ name: 'report.pdf', size: 9, sha256: SHA });
    await runUpload(fake.ctx, 'report.pdf', { property: PROPERTY_ID });
    expect(fake.sent()).toMatchObject({
      path: '/api/files',
      filePath: join(dir, 'report.pdf'),
      fileName: 'report.pdf',
      contentType: 'application/pdf',
      fields: { propertyId: PROPERTY_ID },
      signal: fake.ctx.signal,
    });
    expect(JSON.parse(fake.stdout())).toEqual({ id: FILE_ID, name: 'report.pdf', size: 9, sha256: SHA });
  });

  it('shows byte progress when stderr is a terminal', async () => {
    const fake = apiContext(
      {
        upload: async (options) => {
          options.onProgress?.(4, 9);
          // The spinner is loaded on first use: wait until it has drawn, however long loading takes.
          await expect.poll(() => fake.stderr(), { timeout: 20_000 }).toContain('Uploading 4 B / 9 B (44%)');
          options.onProgress?.(9, 9);
          return { record: { id: FILE_ID }, sha256: SHA, size: 9 };
        },
      },
      { cwd: dir, stderrIsTTY: true },
    );
    await runUpload(fake.ctx, 'report.pdf', {});
    expect(fake.stderr()).toContain('Uploading 4 B / 9 B (44%)');
  });

  it('takes --name and --content-type, and falls back to octet-stream', async () => {
    const named = uploadAnswering({});
    await runUpload(named.ctx, 'blob', { name: 'Front elevation.jpg' });
    expect(named.sent()).toMatchObject({ fileName: 'Front elevation.jpg', contentType: 'image/jpeg', fields: {} });
    const typed = uploadAnswering({});
    await runUpload(typed.ctx, 'blob', { contentType: 'text/plain; charset=utf-8' });
    expect(typed.sent()).toMatchObject({ fileName: 'blob', contentType: 'text/plain; charset=utf-8' });
    const opaque = uploadAnswering({});
    await runUpload(opaque.ctx, 'blob', {});
    expect(opaque.sent()?.contentType).toBe('application/octet-stream');
  });

  it.each([
    ['a missing file', 'nope.pdf', {}, 'no such file: nope.pdf'],
    ['a directory', '.', {}, '. is a directory; upload takes one file'],
    ['a bad --property', 'report.pdf', { property: '42' }, '--property must be a UUID, got "42"'],
    ['a bad --assignment', 'report.pdf', { assignment: 'x' }, '--assignment must be a UUID, got "x"'],
    [
      'a bad --content-type',
      'report.pdf',
      { contentType: 'pdf' },
      '--content-type must be a media type such as application/pdf, got "pdf"',
    ],
    ['a --name with a line break', 'report.pdf', { name: 'a\nb' }, '--name must be a file name without control characters, got "a?b"'],
  ])('refuses %s before any request', async (_, path, flags, message) => {
    const fake = uploadAnswering({});
    const error = await runUpload(fake.ctx, path, flags).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
    expect(fake.calls).toEqual([]);
  });

  it.each([
    ['sha256', { sha256: 'd'.repeat(64), size: 9 }, `sha256 ${'d'.repeat(64)} instead of ${SHA}`],
    ['size', { sha256: SHA, size: 8 }, '8 bytes instead of 9'],
  ])('fails with exit-9 error when the stored %s differs from what was sent', async (_, record, detail) => {
    const fake = uploadAnswering(record);
    const error = await runUpload(fake.ctx, 'report.pdf', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toBe(`upload check failed: file ${FILE_ID} was stored with ${detail} (what was sent)`);
    expect(fake.stdout()).toBe('');
  });
});
