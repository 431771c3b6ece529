// `-o json`: one JSON document. A list is an array written as records arrive, one compact record per
// line (`[\n{…},\n{…}\n]\n`): still a single valid document, and line-oriented so it greps and diffs
// well and costs nothing to produce at 100k records. A single record is pretty-printed.
import type { Context } from '../core/context.js';
import { jsonTerminalSafe } from '../core/terminal-text.js';
import type { EncoderPart, ListEncoder, ListEncoders } from './encoder.js';
import type { Projection } from '../core/field-paths.js';
import type { View } from './view.js';

/** JSON text as it is for a file or a pipe; on a terminal, service text's controls as escapes (same value). */
export function jsonShown(ctx: Context): (text: string) => string {
  return ctx.output.terminal ? jsonTerminalSafe : (text) => text;
}

export function jsonListEncoder(project: Projection, shown: (text: string) => string = (text) => text): ListEncoder {
  let first = true;
  return {
    begin: () => '',
    record(record) {
      const text = shown(JSON.stringify(project(record)));
      if (first) {
        first = false;
        return `[\n${text}`;
      }
      return `,\n${text}`;
    },
    end: (count) => (count === 0 ? '[]\n' : '\n]\n'),
    resume(count) {
      first = count === 0;
    },
  };
}

/** `-o json`: whole records, or their --fields. */
export class JsonPart implements EncoderPart {
  encoders(ctx: Context): ListEncoders {
    const project = ctx.output.projection;
    return { encoder: async () => jsonListEncoder(project, jsonShown(ctx)), report: () => undefined };
  }

  async one(ctx: Context, _view: View, record: Record<string, unknown>): Promise<string> {
    return jsonShown(ctx)(jsonDocument(ctx.output.projection(record)));
  }
}

export function jsonDocument(record: Record<string, unknown>): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
