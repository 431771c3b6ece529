import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/core/errors.js';
import { writeRecords, type View } from '../../../src/output/index.js';
import { fakeContext } from '../../helpers/fake-context.js';
import { waitFor } from '../../helpers/wait.js';

const view: View = { label: 'properties', columns: ['id'] };

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('streaming', () => {
  for (const output of ['json', 'ndjson'] as const) {
    it(`${output} writes records before the iterator has finished`, async () => {
      const fake = fakeContext({ globals: { output } });
      const held = gate();
      async function* records() {
        yield { id: 'p1' };
        await held.wait;
        yield { id: 'p2' };
      }
      const writing = writeRecords(fake.ctx, records(), view);
      await waitFor(() => fake.stdout().includes('"p1"'), 'the first record on stdout');
      expect(fake.stdout()).not.toContain('"p2"');
      held.open();
      expect(await writing).toEqual({ count: 2 });
      expect(fake.stdout()).toContain('"p2"');
    });
  }

  it('ndjson waits for a slow reader (backpressure) instead of buffering everything', async () => {
    let written = 0;
    const slow = new Writable({
      highWaterMark: 64,
      write(_chunk, _encoding, callback) {
        setTimeout(() => {
          written++;
          callback();
        }, 2);
      },
    });
    let produced = 0;
    let maxAhead = 0;
    async function* records() {
      for (let i = 0; i < 60; i++) {
        maxAhead = Math.max(maxAhead, produced - written);
        produced++;
        yield { id: `p${i}`, padding: 'x'.repeat(40) };
      }
    }
    const fake = fakeContext({ globals: { output: 'ndjson' }, stdout: slow });
    expect(await writeRecords(fake.ctx, records(), view)).toEqual({ count: 60 });
    expect(maxAhead).toBeLessThanOrEqual(3);
  });

  function closingPipe(acceptWrites: number): Writable & { writes: number } {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        stream.writes++;
        if (stream.writes > acceptWrites) callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        else callback();
      },
    }) as Writable & { writes: number };
    stream.writes = 0;
    return stream;
  }

  for (const pace of ['async', 'sync'] as const) {
    it(`ends quietly when the reader goes away (EPIPE, ${pace} producer) and stops the producer`, async () => {
      const pipe = closingPipe(3);
      let yielded = 0;
      let closed = false;
      async function* records() {
        try {
          for (;;) {
            if (pace === 'async') await sleep(1);
            yielded++;
            yield { id: `p${yielded}` };
          }
        } finally {
          closed = true;
        }
      }
      const fake = fakeContext({ globals: { output: 'ndjson' }, stdout: pipe });
      const { count } = await writeRecords(fake.ctx, records(), view);
      expect(closed).toBe(true);
      expect(count).toBeGreaterThanOrEqual(3);
      expect(count).toBeLessThan(10);
      expect(yielded).toBe(count);
      expect(fake.stderr()).toBe('');
    });
  }

  it('ends quietly when stdout is destroyed mid-stream', async () => {
    const fake = fakeContext({ globals: { output: 'json' } });
    let closed = false;
    async function* records() {
      try {
        yield { id: 'p1' };
        fake.ctx.io.stdout.destroy();
        for (let i = 2; ; i++) yield { id: `p${i}` };
      } finally {
        closed = true;
      }
    }
    const { count } = await writeRecords(fake.ctx, records(), view);
    expect(closed).toBe(true);
    expect(count).toBeLessThanOrEqual(2);
  });

  it('fails at once with InterruptedError on Ctrl-C, even while a record is awaited', async () => {
    const fake = fakeContext({ globals: { output: 'ndjson' } });
    const never = gate();
    async function* records() {
      yield { id: 'p1' };
      await never.wait;
      yield { id: 'p2' };
    }
    const writing = writeRecords(fake.ctx, records(), view);
    await waitFor(() => fake.stdout().includes('p1'), 'the first record on stdout');
    fake.abort(new InterruptedError());
    await expect(writing).rejects.toBeInstanceOf(InterruptedError);
    never.open();
  });

  it('rethrows what the iterator throws', async () => {
    const fake = fakeContext({ globals: { output: 'json' } });
    async function* records() {
      yield { id: 'p1' };
      throw new Error('page 2 failed');
    }
    await expect(writeRecords(fake.ctx, records(), view)).rejects.toThrow('page 2 failed');
    // The array is left open: a failed export must not look complete.
    expect(fake.stdout()).toBe('[\n{"id":"p1"}');
  });
});
