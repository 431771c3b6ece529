// The change events a watch emits, and where they go: one NDJSON line each on stdout (written with
// backpressure), after the --exec command, if any, has handled the event.
import type { Writable } from 'node:stream';
import type { ApiRecord } from '../../core/api-client.js';
import type { ChildOutcome } from '../../core/child-command.js';
import { InterruptedError, LocalEnvironmentError } from '../../core/errors.js';
import type { ChangeType } from './differ.js';
import type { FamilyName } from './families.js';

export interface WatchEvent {
  type: ChangeType;
  family: FamilyName;
  id: string;
  /** The record as the service returned it; null for "deleted" (the state keeps only versions). */
  record: ApiRecord | null;
  observedAt: string;
}

/** Which change an event is, beyond what it says: --forward-to derives the event's webhook-id from it. */
export interface ChangeFacts {
  /** The poll that found it. */
  poll: number;
  /** The version it is about: the record's new one, or for a deletion the last one seen. */
  version: string;
}

/** Delivers one event; resolves once it is handled, throws to stop the watch before the state moves past it. */
export type EventSink = (event: WatchEvent, change?: ChangeFacts) => Promise<void>;

/** Write one line, waiting for the stream to drain when its buffer is full. */
export function writeLine(stream: Writable, line: string, signal: AbortSignal): Promise<void> {
  if (stream.write(line)) return Promise.resolve();
  // Already stopped: the line is queued in the stream, but nothing will wake a wait for it.
  if (signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onClose);
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => done();
    const onClose = () => done(new LocalEnvironmentError('the event output was closed'));
    const onAbort = () => done(new InterruptedError());
    stream.on('drain', onDrain);
    stream.on('close', onClose);
    stream.on('error', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface SinkOptions {
  stdout: Writable;
  signal: AbortSignal;
  /** --exec: run the command for each event first; a failure stops the watch. */
  exec?: ((event: WatchEvent, line: string) => Promise<ChildOutcome>) | undefined;
  /** For the failure message: whether the state file keeps the place. */
  stateFile?: string | undefined;
  /** Just before a line goes to stdout: on a terminal, stdout and stderr share the screen, and the
   *  status line on stderr must be erased first or the event is printed after it, on its line. */
  beforeWrite?: (() => void) | undefined;
  /** The line as stdout shows it (on a terminal, service text's controls as escapes: output/json.ts). */
  shown?: ((line: string) => string) | undefined;
}

export function eventSink(options: SinkOptions): EventSink {
  return async (event) => {
    const line = `${JSON.stringify(event)}\n`;
    if (options.exec) {
      const result = await options.exec(event, line);
      // Ctrl-C stopped the command (and the watch): the event is not handled, so not written, and
      // the state stays before it.
      if (options.signal.aborted) throw new InterruptedError();
      if (!result.ok) {
        throw new LocalEnvironmentError(`--exec command ${result.reason} on the ${event.type} event for ${event.family} ${event.id}`, {
          hint: options.stateFile
            ? `the state file was not advanced past this event: fix the command and run the same watch again to resume from it`
            : 'without --state-file nothing is kept: the next run starts from a new baseline',
        });
      }
    }
    options.beforeWrite?.();
    await writeLine(options.stdout, options.shown ? options.shown(line) : line, options.signal);
  };
}
