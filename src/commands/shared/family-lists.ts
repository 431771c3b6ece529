// The list operations a run over several families calls (`export`, `sync`): each family's collection,
// and for contacts, listed per client, the clients' collection too. Declared in `calls` so `spec
// check` and the binding know them; each run narrows them to the families it was asked for.
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { Operation } from '../../core/description/operations.js';
import { UnpublishedOperationError } from '../../core/errors.js';
import { collectionTemplate, parentFamily, type ResourceFamily } from '../../core/resources.js';

/** `query`: the filters a family's list may send (export: updatedSince where the family accepts it). */
export function familyListOperations(families: readonly ResourceFamily[], query: (family: ResourceFamily) => string[]): Operation[] {
  const operations = new Map<string, Operation>();
  for (const family of families) {
    const parent = parentFamily(family);
    if (parent && !operations.has(parent.path)) operations.set(parent.path, { method: 'GET', path: parent.path });
    const path = collectionTemplate(family);
    operations.set(path, { method: 'GET', path, query: query(family) });
  }
  return [...operations.values()];
}

/**
 * The run's client, its families' operations bound now: an unpublished one is refused (exit 12)
 * before anything is written, with how to leave its family out (`leaveOut`, the command's own way).
 */
export async function bindFamilies(ctx: Context, leaveOut: string): Promise<ApiClient> {
  try {
    return await ctx.api();
  } catch (error) {
    if (!(error instanceof UnpublishedOperationError)) throw error;
    throw new UnpublishedOperationError(error.message, {
      hint: `${leaveOut}; \`appraisal api --list\` shows what the service publishes`,
    });
  }
}
