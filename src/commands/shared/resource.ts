// What a resource family is, to the shared verbs: where it lives, what its records are called and
// which columns an ops team wants to see by default.
import type { View } from '../../output/index.js';

export interface ListFilter {
  /** commander flag spec, e.g. `--type <type>`. */
  flags: string;
  description: string;
  /** Query parameter sent to the service. */
  param: string;
  /** Checked before any request. */
  kind?: 'text' | 'uuid' | 'timestamp';
}

export interface ResourceSpec {
  /** Singular, for messages: "property". */
  singular: string;
  /** Collection path, e.g. `/api/properties`. */
  path: string;
  view: View;
  filters?: readonly ListFilter[];
}

export function recordPath(spec: ResourceSpec, id: string): string {
  return `${spec.path}/${encodeURIComponent(id)}`;
}
