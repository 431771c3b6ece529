import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THROTTLE_MS, bytesText, createProgress, fetchedText, formatBytes } from '../../../src/output/progress.js';
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

// No fixed sleeps: ora loads asynchronously (slow on a loaded machine), so tests wait for the text
// they expect, with a deadline; the throttle and ora's frame timer run on fake timers, so "nothing
// more is written" is checked by running every timer there is, not by waiting and hoping.
const LOADED = { timeout: 30_000, interval: 10 };

describe('createProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does nothing unless stderr is a terminal and not --quiet', async () => {
    const silent = [fakeContext({ stderrIsTTY: false }), fakeContext({ stderrIsTTY: true, globals: { quiet: true } })];
    for (const fake of silent) {
      const progress = createProgress(fake.ctx, 'properties');
      progress.update(1, 2);
      progress.succeed('done');
    }
    // A terminal beside them, as a control: once its line is out, ora has loaded and run.
    const control = fakeContext({ stderrIsTTY: true });
    createProgress(control.ctx, 'properties').succeed('control done');
    await vi.waitFor(() => expect(control.stderr()).toContain('control done'), LOADED);
    vi.runOnlyPendingTimers();
    for (const fake of silent) {
      expect(fake.stderr()).toBe('');
      expect(fake.stdout()).toBe('');
    }
  });

  it('shows the latest count on stderr, never on stdout, and stops', async () => {
    const fake = fakeContext({ stderrIsTTY: true });
    const progress = createProgress(fake.ctx, 'properties');
    progress.update(100, 120000);
    progress.update(3400, 120000);
    await vi.waitFor(() => expect(fake.stderr()).toContain('Fetched 3,400 / 120,000 properties'), LOADED);
    progress.succeed('Fetched 120,000 properties');
    expect(fake.stderr()).toContain('Fetched 120,000 properties');
    const after = fake.stderr().length;
    progress.update(5, 6);
    // Stopped: no frame timer and no throttled update left to write anything.
    vi.advanceTimersByTime(10_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(fake.stderr().length).toBe(after);
    expect(fake.stdout()).toBe('');
  });

  it('throttles: a burst of updates shows the latest once the window has passed', async () => {
    const fake = fakeContext({ stderrIsTTY: true });
    const progress = createProgress(fake.ctx, 'properties');
    progress.update(1, 100);
    await vi.waitFor(() => expect(fake.stderr()).toContain('Fetched 1 / 100 properties'), LOADED);
    progress.update(2, 100);
    progress.update(3, 100);
    // Before the window: the text has not changed (ora draws frames on its own timer).
    vi.advanceTimersByTime(THROTTLE_MS - 1);
    expect(fake.stderr()).not.toContain('Fetched 3 / 100');
    vi.advanceTimersByTime(200);
    expect(fake.stderr()).toContain('Fetched 3 / 100 properties');
    expect(fake.stderr()).not.toContain('Fetched 2 / 100');
    progress.stop();
  });

  it('still prints the success line when it finishes before ora has loaded', async () => {
    const fake = fakeContext({ stderrIsTTY: true });
    const progress = createProgress(fake.ctx, 'files');
    progress.succeed('Uploaded a.pdf');
    await vi.waitFor(() => expect(fake.stderr()).toContain('Uploaded a.pdf'), LOADED);
  });
});
