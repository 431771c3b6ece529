// Writing one record (`get`, `create`, a command's single answer) to stdout or the `--out` file
// written atomically, by the part of the encoder the plan named (sinks.ts: nothing here chooses a
// format); a list of records goes through the pipe (pipe.ts).
import type { Context } from '../core/context.js';
import { ContractError } from '../core/errors.js';
import { atomicOutFile } from './atomic-out-file.js';
import type { Destination } from './destination.js';
import { abortReason } from './pipe.js';
import { encoderPart, stdoutDestination, type StdoutOptions } from './sinks.js';
import { countOf, type View } from './view.js';

/** The plan's `--out` file written atomically, or stdout: where one record (writeRecord) or a text output (api, smoke) goes. */
export async function openDestination(ctx: Context, options: StdoutOptions = {}): Promise<Destination> {
  return ctx.output.outPath === undefined ? stdoutDestination(ctx.io, options) : atomicOutFile(ctx.output);
}

/** Print one record: json pretty-printed, table as key/value rows, ndjson/csv as for lists. */
export async function writeRecord(ctx: Context, record: Record<string, unknown>, view: View): Promise<void> {
  // Records come from the service: an answer without one (an empty 201, a 204 to a PATCH) is its
  // broken contract, not a crash of the formatter.
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ContractError(
      `the service answered without a ${view.singular ?? view.label} to show (got ${record === undefined ? 'an empty answer' : Array.isArray(record) ? 'an array' : String(record)})`,
      {
        hint: 'the service broke its published contract; report it with the request id from --verbose',
      },
    );
  }
  // The format's usage error (an --out extension that names none) before anything is opened.
  void ctx.output.format;
  const destination = await openDestination(ctx);
  try {
    const text = await encoderPart(ctx).one(ctx, view, record);
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    await destination.write(text);
    await destination.finish();
  } catch (error) {
    await destination.discard();
    throw error;
  }
  if (destination.displayPath !== undefined) ctx.io.notice(`Wrote ${countOf(1, view)} to ${destination.displayPath}`);
}
