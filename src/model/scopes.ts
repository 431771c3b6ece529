// The scope names of API.md "Scopes", once for the CLI and the mock (both read src/model, neither
// reads the other):
//   api:read / api:write / api:delete   every resource family at that level (not key management)
//   api:admin                            everything, key management included
//   <family>:read|write|delete           one family; write implies read, delete implies write
//   keys:admin                           key management
// The scope families are the `scope` of the model's families (families.ts), listed here in the
// order the service publishes them.

export const SCOPE_FAMILIES = ['properties', 'assignments', 'clients', 'files', 'reference'] as const;
export type ScopeFamily = (typeof SCOPE_FAMILIES)[number];

export const SCOPE_LEVELS = ['read', 'write', 'delete'] as const;
export type ScopeLevel = (typeof SCOPE_LEVELS)[number];

export const API_SCOPES = ['api:read', 'api:write', 'api:delete', 'api:admin'] as const;

/** Every scope a key can be created with, in a stable order. */
export const KEY_SCOPES: readonly string[] = [
  ...API_SCOPES,
  ...SCOPE_FAMILIES.flatMap((family) => SCOPE_LEVELS.map((level) => `${family}:${level}`)),
  'keys:admin',
];
