import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bytesText, createProgress, fetchedText, formatBytes } from '../../../src/output/progress.js';
import { fakeContext } from '../../helpers/fake-context.js';

describe('progress text', () => {
  it('counts with thousands separators', () => {
    expect(fetchedText(3400, 120000, 'properties')).toBe('Fetched 3,400 / 120,000 properties');
    expect(fetchedText(12, undefined, 'clients')).toBe('Fetched 12 clients');
  });

  it('shows bytes in binary units with a percentage', () => {
    expect(bytesText(12.3 * 1024 * 1024, 50 * 1024 * 1024)).toBe('Uploading 12.3 MiB / 50.0 MiB (24%)');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(bytesText(0, 0)).toBe('Uploading 0 B / 0 B (100%)');
  });
});

describe('createProgress', () => {
  it('does nothing unless stderr is a terminal and not --quiet', async () => {
    for (const fake of [fakeContext({ stderrIsTTY: false }), fakeContext({ stderrIsTTY: true, globals: { quiet: true } })]) {
      const progress = createProgress(fake.ctx, 'properties');
      progress.update(1, 2);
      progress.succeed('done');
      await sleep(50);
      expect(fake.stderr()).toBe('');
      expect(fake.stdout()).toBe('');
    }
  });

  it('shows the latest count on stderr, never on stdout, and stops', async () => {
    const fake = fakeContext({ stderrIsTTY: true });
    const progress = createProgress(fake.ctx, 'properties');
    progress.update(100, 120000);
    progress.update(3400, 120000);
    await sleep(300);
    expect(fake.stderr()).toContain('Fetched 3,400 / 120,000 properties');
    progress.succeed('Fetched 120,000 properties');
    expect(fake.stderr()).toContain('Fetched 120,000 properties');
    const after = fake.stderr().length;
    progress.update(5, 6);
    await sleep(150);
    expect(fake.stderr().length).toBe(after);
    expect(fake.stdout()).toBe('');
  });

  it('still prints the success line when it finishes before ora has loaded', async () => {
    const fake = fakeContext({ stderrIsTTY: true });
    const progress = createProgress(fake.ctx, 'files');
    progress.succeed('Uploaded a.pdf');
    await sleep(200);
    expect(fake.stderr()).toContain('Uploaded a.pdf');
  });
});
