// Field names as database column names: `postalCode` → `postal_code`, `propertyIds` → `property_ids`,
// `line1` → `line1`. Lower case, words split at a lower→upper change and before the last capital of
// a run followed by lower case (`HTTPServer` → `http_server`); anything that is not a letter, digit
// or underscore becomes one underscore, so every name is a plain SQL identifier.
export function snakeCase(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return words === '' ? '_' : words;
}
