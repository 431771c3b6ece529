// Smoke reads the same description every other command binds to (core/description/load.ts: --spec,
// APPRAISAL_SPEC, the profile's spec URL, discovery, the cache) and binds the operations the CLI's
// families and its own reads call, one by one: an operation the service does not publish fails its
// own check (and the spec check) instead of refusing the whole run, as a command would.
import type { ApiClient, HttpMethod } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import { bindOperations, unpublishedError, type BoundOperation } from '../../../core/description/operation-binding.js';
import { findByTemplate, type PublishedOperation } from '../../../core/description/document.js';
import { bundledDescription, loadDescription, type LoadedDescription } from '../../../core/description/load.js';
import type { Operation } from '../../../core/description/operations.js';
import { UnpublishedOperationError } from '../../../core/errors.js';
import { FAMILIES, REFERENCE_ENUMS_PATH, collectionTemplate, recordTemplate } from '../../../core/resources.js';
import type { SmokeDescription, SmokeState } from './check.js';

export const CURRENT_KEY_PATH = '/api/keys/current';
export const KEYS_PATH = '/api/keys';

/** Every operation the family verbs call (as list.ts and crud.ts declare them), and smoke's own reads. */
export function modelledOperations(): Operation[] {
  const operations: Operation[] = [
    { method: 'GET', path: CURRENT_KEY_PATH },
    { method: 'GET', path: KEYS_PATH },
    { method: 'GET', path: REFERENCE_ENUMS_PATH },
  ];
  for (const family of FAMILIES) {
    const { get, create, update, delete: remove } = family.operations;
    operations.push({ method: 'GET', path: collectionTemplate(family) });
    if (get) operations.push({ method: 'GET', path: recordTemplate(family) });
    if (create) operations.push({ method: 'POST', path: collectionTemplate(family) });
    if (update) operations.push({ method: 'PATCH', path: recordTemplate(family) });
    if (remove) operations.push({ method: 'DELETE', path: recordTemplate(family) });
  }
  return operations;
}

/** One operation bound on its own; undefined when the service does not publish it. */
export async function bindOne(loaded: LoadedDescription, operation: Operation): Promise<BoundOperation | undefined> {
  try {
    return (await bindOperations('smoke', [operation], loaded)).operations[0];
  } catch (error) {
    if (error instanceof UnpublishedOperationError) return undefined;
    throw error;
  }
}

export async function readDescription(ctx: Context, api: ApiClient): Promise<SmokeDescription> {
  // A failed discovery does not stop smoke: it goes on with the last good copy or the bundled model,
  // and the spec check fails with the reason (contract.ts).
  const loaded = await loadDescription(ctx, { api, command: 'smoke', failures: 'report' });
  const bound: BoundOperation[] = [];
  const missing: SmokeDescription['missing'] = [];
  for (const operation of modelledOperations()) {
    const found = await bindOne(loaded, operation);
    if (found) bound.push(found);
    else
      missing.push({
        declared: operation,
        operationId: findByTemplate(await bundledDescription(), operation.method, operation.path)?.operationId,
      });
  }
  return { loaded, bound, missing };
}

/** The published operation a request of a check goes to, once smoke has bound its operations. */
export function publishedOperation(state: SmokeState, method: HttpMethod, path: string): PublishedOperation | undefined {
  return state.binding?.route(method, path)?.bound.published;
}

/** Before a built-in check's request: refuse (exit 12) an operation the service does not publish. */
export function requirePublished(state: SmokeState, method: Operation['method'], template: string): void {
  const description = state.description;
  if (!description) return; // Not read (unreachable, or it failed): the CLI's own paths, as modelled.
  const missing = description.missing.find(({ declared }) => declared.method === method && declared.path === template);
  if (missing) throw unpublishedError('smoke', [missing], description.loaded.source);
}
