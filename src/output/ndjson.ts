// `-o ndjson`: one compact JSON record per line, nothing else, so `| head`, `jq -c` and line-based
// tools work on it as it streams.
import type { Context } from '../core/context.js';
import type { EncoderPart, ListEncoder, ListEncoders } from './encoder.js';
import type { Projection } from '../core/field-paths.js';
import type { View } from './view.js';
import { jsonShown } from './json.js';

export function ndjsonLine(record: Record<string, unknown>): string {
  return `${JSON.stringify(record)}\n`;
}

export function ndjsonListEncoder(project: Projection, shown: (text: string) => string = (text) => text): ListEncoder {
  return {
    begin: () => '',
    record: (record) => shown(ndjsonLine(project(record))),
    end: () => '',
  };
}

/** `-o ndjson`: whole records, or their --fields. */
export class NdjsonPart implements EncoderPart {
  encoders(ctx: Context): ListEncoders {
    const project = ctx.output.projection;
    return { encoder: async () => ndjsonListEncoder(project, jsonShown(ctx)), report: () => undefined };
  }

  async one(ctx: Context, _view: View, record: Record<string, unknown>): Promise<string> {
    return jsonShown(ctx)(ndjsonLine(ctx.output.projection(record)));
  }
}
