// Every operation the CLI calls is a published operation of the committed openapi.json. The list is
// derived from the verb declarations: each one declares what it calls (core/verb.ts) from
// the same path templates it requests, so a new command or a changed path is checked automatically.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContract } from '../../src/core/description/document.js';
import { loadAllNouns } from '../../src/commands/registry.js';
import { operationsOf, verbsOf } from '../../src/core/verb.js';
import { ROOT } from '../helpers/env.js';

/** Nouns whose every command talks to the service and declares its operations. */
const SERVICE_NOUNS = ['props', 'assignments', 'clients', 'contacts', 'files', 'ref', 'keys'];

/** The declared verbs of those nouns (commands/registry.ts: the one list of commands). */
async function serviceCommands() {
  return verbsOf(await loadAllNouns())
    .filter(({ noun }) => SERVICE_NOUNS.includes(noun.name))
    .map(({ path, verb }) => ({ name: path, operations: operationsOf(verb) }));
}

/** `/api/files/{fileId}` and `/api/files/{id}` are the same operation. */
const key = (operation: { method: string; path: string }) =>
  `${operation.method.toUpperCase()} ${operation.path.replace(/\{[^}/]*\}/g, '{}')}`;

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
}
type Document = {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components?: { parameters?: Record<string, Parameter> };
};

/** The query parameters each published operation takes, by operation key. */
function queryParameters(document: Document): Map<string, Set<string>> {
  const resolve = (p: Parameter) => (p.$ref ? (document.components?.parameters?.[p.$ref.split('/').pop()!] ?? {}) : p);
  const byOperation = new Map<string, Set<string>>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const names = (operation.parameters ?? [])
        .map(resolve)
        .filter((p) => p.in === 'query')
        .map((p) => p.name!);
      byOperation.set(key({ method, path }), new Set(names));
    }
  }
  return byOperation;
}

describe('OpenAPI coverage', () => {
  it('every command of the resource nouns declares the operations it calls', async () => {
    const silent = (await serviceCommands()).filter(({ operations }) => operations.length === 0).map(({ name }) => name);
    expect(silent).toEqual([]);
  });

  const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as Document;

  it('every operation the CLI calls is in the committed openapi.json', async () => {
    const published = new Set(readContract(document).operations.map(key));
    const called = new Map<string, string>();
    for (const { name, operations } of await serviceCommands()) {
      for (const operation of operations) called.set(key(operation), `${operation.method} ${operation.path} (${name})`);
    }
    // Sanity: the derivation found the families, not an empty list that passes vacuously.
    expect(called.size).toBeGreaterThanOrEqual(30);
    const missing = [...called].filter(([k]) => !published.has(k)).map(([, shown]) => shown);
    expect(missing).toEqual([]);
  });

  it('every list filter is a published query parameter of its operation', async () => {
    const published = queryParameters(document);
    const unpublished = [];
    for (const { name, operations } of await serviceCommands()) {
      for (const operation of operations) {
        const known = published.get(key(operation)) ?? new Set<string>();
        unpublished.push(...(operation.query ?? []).filter((param) => !known.has(param)).map((param) => `${name}: ${param}`));
      }
    }
    expect(unpublished).toEqual([]);
  });
});
