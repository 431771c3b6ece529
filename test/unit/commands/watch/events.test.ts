import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError, LocalEnvironmentError } from '../../../../src/core/errors.js';
import { eventSink, writeLine, type WatchEvent } from '../../../../src/commands/watch/events.js';
import { formatStatus, statusLine } from '../../../../src/commands/watch/progress.js';

const event: WatchEvent = {
  type: 'updated',
  family: 'props',
  id: 'p1',
  record: { id: 'p1', name: 'Harbor Point', updatedAt: '2026-03-01T12:00:00.000Z' },
  observedAt: '2026-03-01T12:00:01.000Z',
};

function collector() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

/** A writable whose buffer is always full until drain() is called. */
function slowWritable() {
  const chunks: string[] = [];
  let release: (() => void) | undefined;
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      release = callback;
    },
  });
  return { stream, chunks, drain: () => release?.() };
}

describe('writeLine', () => {
  it('waits for the stream to drain when its buffer is full', async () => {
    const slow = slowWritable();
    let done = false;
    const pending = writeLine(slow.stream, 'x\n', new AbortController().signal).then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    slow.drain();
    await pending;
    expect(done).toBe(true);
  });

  it('gives up on Ctrl-C while waiting', async () => {
    const slow = slowWritable();
    const controller = new AbortController();
    const pending = writeLine(slow.stream, 'x\n', controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow(InterruptedError);
  });
});

describe('eventSink', () => {
  it('writes one NDJSON line per event', async () => {
    const out = collector();
    const sink = eventSink({ stdout: out.stream, signal: new AbortController().signal });
    await sink(event);
    await sink({ ...event, type: 'deleted', record: null });
    const lines = out.text().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual([event, { ...event, type: 'deleted', record: null }]);
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(['type', 'family', 'id', 'record', 'observedAt']);
  });

  it('with --exec, writes the event only after the command succeeded, and fails clearly when it does not', async () => {
    const out = collector();
    const inputs: string[] = [];
    let code = 0;
    const sink = eventSink({
      stdout: out.stream,
      signal: new AbortController().signal,
      stateFile: '/x/props.state',
      exec: async (_event, line) => {
        inputs.push(line);
        return code === 0
          ? { ok: true }
          : { ok: false, reason: `exited with code ${code}`, code, signal: null, timedOut: false, interrupted: false };
      },
    });
    await sink(event);
    expect(inputs).toEqual([`${JSON.stringify(event)}\n`]);
    expect(out.text()).toBe(inputs[0]);
    code = 3;
    const error = await sink({ ...event, id: 'p2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalEnvironmentError);
    expect((error as Error).message).toBe('--exec command exited with code 3 on the updated event for props p2');
    expect((error as LocalEnvironmentError).hint).toMatch(/not advanced past this event/);
    expect(out.text()).toBe(inputs[0]);
  });

  it('with --exec, Ctrl-C during the command neither writes the event nor reports the command failing', async () => {
    const out = collector();
    const controller = new AbortController();
    const sink = eventSink({
      stdout: out.stream,
      signal: controller.signal,
      exec: async () => {
        controller.abort();
        return { ok: false, reason: 'was interrupted', code: null, signal: 'SIGINT', timedOut: false, interrupted: true };
      },
    });
    expect(await sink(event).catch((e: unknown) => e)).toBeInstanceOf(InterruptedError);
    expect(out.text()).toBe('');
  });
});

describe('status line', () => {
  it('says what is watched, when it last polled, when it polls next and how many events so far', () => {
    const text = formatStatus({
      label: 'properties',
      lastPollAt: Date.now(),
      nextPollAt: Date.now() + 60_000,
      events: 1234,
      retrying: false,
    });
    expect(text).toMatch(/^watching properties · last poll \d\d:\d\d:\d\d · next \d\d:\d\d:\d\d · 1,234 events$/);
    expect(formatStatus({ label: 'clients', lastPollAt: undefined, nextPollAt: 0, events: 1, retrying: true })).toMatch(
      /· retry \d\d:\d\d:\d\d · 1 event$/,
    );
  });

  it('is rewritten in place and only when enabled', () => {
    const out = collector();
    const line = statusLine(out.stream, true);
    line.show({ label: 'files', lastPollAt: undefined, nextPollAt: undefined, events: 0, retrying: false });
    line.clear();
    line.clear();
    expect(out.text()).toBe('\r\x1b[2Kwatching files · 0 events\r\x1b[2K');
    const off = collector();
    statusLine(off.stream, false).show({ label: 'files', lastPollAt: undefined, nextPollAt: undefined, events: 0, retrying: false });
    expect(off.text()).toBe('');
  });
});
