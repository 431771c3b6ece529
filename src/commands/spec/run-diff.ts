// `spec diff`: what changed in the service's description since the cached copy: operations removed,
// moved, changed, added, breaking changes first. It fetches the current description (which then
// becomes the cached copy, as `spec sync` would).
import type { Context } from '../../core/context.js';
import type { PublishedContract, PublishedOperation } from '../../core/description/document.js';
import { loadDescription } from '../../core/description/load.js';
import { writeRecords, type View } from '../../output/index.js';
import { compareOperations, describeChanges, hasChanges, isBreaking, operationLabel } from './compare.js';

const VIEW: View = { label: 'changes', singular: 'change', columns: ['change', 'breaking', 'operation', 'detail'] };

export type DiffRow = {
  id: string;
  change: 'removed' | 'moved' | 'changed' | 'added';
  breaking: boolean;
  operation: string;
  detail: string | null;
};

/** Operations are the same operation when their operationId is, else when method and path are. */
function keyOf(operation: PublishedOperation): string {
  return operation.operationId ?? `${operation.method} ${operation.path.replace(/\{[^}/]*\}/g, '{}')}`;
}

export function diffContracts(before: PublishedContract, after: PublishedContract): DiffRow[] {
  const old = new Map(before.operations.map((operation) => [keyOf(operation), operation]));
  const now = new Map(after.operations.map((operation) => [keyOf(operation), operation]));
  const rows: DiffRow[] = [];
  for (const [key, was] of old) {
    const is = now.get(key);
    const name = was.operationId ? `${was.operationId} (${operationLabel(was)})` : operationLabel(was);
    if (!is) {
      rows.push({ id: key, change: 'removed', breaking: true, operation: name, detail: null });
      continue;
    }
    const changes = compareOperations(was, before, is, after);
    const moved = was.method !== is.method || was.path.replace(/\{[^}/]*\}/g, '{}') !== is.path.replace(/\{[^}/]*\}/g, '{}');
    if (moved) {
      const detail = [`now ${operationLabel(is)}`, hasChanges(changes) ? describeChanges(changes) : ''].filter(Boolean).join('; ');
      rows.push({ id: key, change: 'moved', breaking: true, operation: name, detail });
    } else if (hasChanges(changes)) {
      rows.push({ id: key, change: 'changed', breaking: isBreaking(changes), operation: name, detail: describeChanges(changes) });
    }
  }
  for (const [key, is] of now) {
    if (!old.has(key))
      rows.push({
        id: key,
        change: 'added',
        breaking: false,
        operation: is.operationId ? `${is.operationId} (${operationLabel(is)})` : operationLabel(is),
        detail: null,
      });
  }
  const order = { removed: 0, moved: 1, changed: 2, added: 3 };
  return rows.sort(
    (a, b) => Number(b.breaking) - Number(a.breaking) || order[a.change] - order[b.change] || a.operation.localeCompare(b.operation),
  );
}

export async function runDiff(ctx: Context): Promise<void> {
  const loaded = await loadDescription(ctx, { refresh: true });
  if (!loaded.previous) {
    ctx.io.notice(
      loaded.fromCache
        ? `no change: the service answered that its description (${loaded.source}) is the cached one`
        : `no cached copy to compare with; cached ${loaded.source} now`,
    );
    await writeRecords(ctx, (async function* () {})(), VIEW);
    return;
  }
  const rows = diffContracts(loaded.previous, loaded.contract);
  async function* shown() {
    yield* rows;
  }
  await writeRecords(ctx, shown(), VIEW);
  const breaking = rows.filter((row) => row.breaking).length;
  ctx.io.notice(
    `${rows.length} change${rows.length === 1 ? '' : 's'} since the cached copy (${breaking} breaking); the cache now holds ${loaded.source}`,
  );
}
