// `-o ndjson`: one compact JSON record per line, nothing else, so `| head`, `jq -c` and line-based
// tools work on it as it streams.
import type { ListEncoder } from './encoder.js';

type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

export function ndjsonLine(record: Record<string, unknown>): string {
  return `${JSON.stringify(record)}\n`;
}

export function ndjsonListEncoder(project: Projection): ListEncoder {
  return {
    begin: () => '',
    record: (record) => ndjsonLine(project(record)),
    end: () => '',
  };
}
