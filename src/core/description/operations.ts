// An operation a verb calls (its declaration's `calls`, core/verb.ts). At run time the CLI binds each
// one to the service's published description (operation-binding.ts); a test checks them against openapi.json.
import type { HttpMethod } from '../api-client.js';

export interface Operation {
  method: HttpMethod;
  /** Path template with `{name}` placeholders, e.g. `/api/files/{id}/content`. */
  path: string;
  /** Query parameters it may send (list filters). */
  query?: readonly string[];
}

/** A path template with its `{placeholders}` replaced by URL-encoded values. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}
