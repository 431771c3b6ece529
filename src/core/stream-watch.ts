// What became of an output stream while a run writes to it: the reader went away (EPIPE, as with
// `| head`, or the stream was destroyed), or some other error, reported by the next write. Kept on
// the IO that owns the stream (io.ts `stdoutWatch`): one listener pair per stream however many
// times output is written, so no listener leak.
import type { Writable } from 'node:stream';

const READER_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

export class StreamWatch {
  /** The reader went away (EPIPE) or the stream was closed. */
  gone = false;
  /** Any other stream error, reported by the next write. */
  error: Error | undefined;

  constructor(stream: Writable) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (READER_GONE.has(error.code ?? '')) this.gone = true;
      else this.error ??= error;
    });
    stream.on('close', () => {
      this.gone = true;
    });
  }
}
