// Crafted service descriptions (issue 26 item 9): the bundled openapi.json with its schemas changed,
// written as a file for --spec, and the property body the crafted schemas are checked against.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/env.js';
import { tempDir } from '../helpers/temp.js';

export type Schemas = Record<string, { properties?: Record<string, Record<string, unknown>>; [key: string]: unknown }>;

/** The bundled description with `change` applied to its schemas, as a file for --spec. */
export function crafted(change: (schemas: Schemas) => void): string {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { components: { schemas: Schemas } };
  change(document.components.schemas);
  const path = join(tempDir('crafted-spec-'), 'openapi.json');
  writeFileSync(path, JSON.stringify(document));
  return path;
}

/** A property to create, named `name` (the field the crafted patterns are on). */
export const propertyBody = (name: string): string =>
  JSON.stringify({
    name,
    propertyType: 'office',
    address: { line1: '1 Main St', city: 'X', region: 'NY', postalCode: '10001', country: 'US' },
  });
