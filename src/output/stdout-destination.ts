// Output to stdout with backpressure, ending quietly when the reader goes away (as with `| head`).
import type { Writable } from 'node:stream';
import { LocalEnvironmentError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import type { Destination } from './destination.js';

function waitForDrain(stream: Writable): Promise<void> {
  return new Promise((resolveWait) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolveWait();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

export interface StdoutOptions {
  /**
   * Gather what is written while records keep coming without waiting (a page already received) into
   * one write: flushed when the producer next waits for I/O (the event loop turns), at 64 KiB, and
   * at the end. One write per page instead of one per record (stdout to a file or a pipe is a
   * syscall per write). For paged lists only: a producer that never waits would be stopped by a
   * closed reader only a batch later.
   */
  batch?: boolean;
}

const BATCH_BYTES = 64 * 1024;

/** The run's stdout (`io.stdout`), watched by its IO (`io.stdoutWatch`: the reader gone, an error). */
export function stdoutDestination(io: Pick<IO, 'stdout' | 'stdoutWatch'>, options: StdoutOptions = {}): Destination {
  const stream = io.stdout;
  const state = io.stdoutWatch;
  const gone = () => state.gone || stream.destroyed || stream.writableEnded;
  const check = () => {
    if (state.error) throw new LocalEnvironmentError(`could not write the output: ${state.error.message}`, { cause: state.error });
  };
  const writeNow = async (text: string): Promise<boolean> => {
    check();
    if (gone()) return false;
    if (text === '') return true;
    if (!stream.write(text)) {
      // A destroyed stream answers false and will never drain.
      if (gone()) return false;
      await waitForDrain(stream);
      check();
    }
    return !gone();
  };
  if (!options.batch) return { displayPath: undefined, write: writeNow, finish: async () => check(), discard: async () => {} };

  let batch = '';
  let scheduled: NodeJS.Immediate | undefined;
  // A flush the event loop started; the next write waits for it, so order and backpressure hold.
  let flushing: Promise<boolean> = Promise.resolve(true);
  const flush = (): Promise<boolean> => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    const text = batch;
    batch = '';
    flushing = flushing.then((open) => (open ? writeNow(text) : false));
    return flushing;
  };
  return {
    displayPath: undefined,
    async write(text) {
      if (!(await flushing)) return false;
      check();
      if (gone()) return false;
      batch += text;
      if (batch.length >= BATCH_BYTES) return flush();
      // Stream errors surface on the next write or at finish(); a failed flush must not go unhandled.
      scheduled ??= setImmediate(() => void flush().catch(() => undefined));
      return true;
    },
    async finish() {
      await flush();
      check();
    },
    async discard() {
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      batch = '';
    },
  };
}
