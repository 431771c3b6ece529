// `-o json`: one JSON document. A list is an array written as records arrive, one compact record per
// line (`[\n{…},\n{…}\n]\n`): still a single valid document, and line-oriented so it greps and diffs
// well and costs nothing to produce at 100k records. A single record is pretty-printed.
import type { ListEncoder } from './encoder.js';

type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

export function jsonListEncoder(project: Projection): ListEncoder {
  let first = true;
  return {
    begin: () => '',
    record(record) {
      const text = JSON.stringify(project(record));
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

export function jsonDocument(record: Record<string, unknown>): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
