// `spec check`: every operation a command of this CLI uses, against the service's description:
// published as modelled, published under another path (found by operationId), missing, or changed
// (request/response schema, query parameters). Exit 12 when a command's operation is missing.
import type { Context } from '../../core/context.js';
import { findByOperationId, findByTemplate } from '../../core/description/document.js';
import { bundledDescription, loadDescription } from '../../core/description/load.js';
import { UnpublishedOperationError } from '../../core/errors.js';
import { operationsOf, type DeclaredVerb } from '../../core/verb.js';
import { writeRecords, type View } from '../../output/index.js';
import { compareOperations, describeChanges, hasChanges, operationLabel } from './compare.js';

const VIEW: View = { label: 'operations', singular: 'operation', columns: ['command', 'operation', 'status', 'publishedAs', 'changes'] };

export type CheckStatus = 'as modelled' | 'moved' | 'missing' | 'changed';

export type CheckRow = {
  id: string;
  command: string;
  operation: string;
  operationId: string | null;
  status: CheckStatus;
  publishedAs: string | null;
  changes: string | null;
};

export async function runCheck(ctx: Context, verbs: readonly DeclaredVerb[], all: boolean): Promise<void> {
  // What it checks is the service's description: one it cannot read fails the check (a service that
  // cannot be reached, exit 3; the last good copy with a warning if there is one). Falling back to
  // the bundled model, as other commands do, compared the model with itself: "all as modelled".
  const loaded = await loadDescription(ctx, { failures: 'throw' });
  const model = await bundledDescription();
  const rows: CheckRow[] = [];
  // Every declared verb (commands/registry.ts): the same list help and completion read.
  for (const { path: name, verb } of verbs) {
    for (const declared of operationsOf(verb)) {
      const modelled = findByTemplate(model, declared.method, declared.path);
      const operationId = modelled?.operationId ?? null;
      let published = findByTemplate(loaded.contract, declared.method, declared.path);
      let status: CheckStatus = 'as modelled';
      if (!published && operationId) {
        published = findByOperationId(loaded.contract, operationId);
        if (published) status = 'moved';
      }
      if (!published) status = 'missing';
      const changes = published && modelled ? compareOperations(modelled, model, published, loaded.contract) : undefined;
      if (status === 'as modelled' && changes && hasChanges(changes)) status = 'changed';
      rows.push({
        id: `${name}: ${operationLabel(declared)}`,
        command: name,
        operation: operationLabel(declared),
        operationId,
        status,
        publishedAs: published && status === 'moved' ? operationLabel(published) : null,
        changes: changes && hasChanges(changes) ? describeChanges(changes) : null,
      });
    }
  }
  const differences = rows.filter((row) => row.status !== 'as modelled');
  async function* shown() {
    yield* all ? rows : differences;
  }
  await writeRecords(ctx, shown(), VIEW);
  // Counted by operation: one many commands use (GET /api/properties) is one operation, not one per command.
  const operations = new Map(rows.map((row) => [row.operation, row.status]));
  const count = (status: CheckStatus) => [...operations.values()].filter((found) => found === status).length;
  ctx.io.notice(
    `${operations.size} operations used by ${new Set(rows.map((row) => row.command)).size} of this CLI's commands, against ${loaded.source}: ${count('as modelled')} as modelled, ${count('moved')} under another path, ${count('changed')} changed, ${count('missing')} missing`,
  );
  const missing = rows.filter((row) => row.status === 'missing');
  if (missing.length > 0) {
    const commands = [...new Set(missing.map((row) => row.command))];
    throw new UnpublishedOperationError(
      `${commands.length} command${commands.length === 1 ? '' : 's'} cannot run against this service: ${commands.join(', ')}`,
      {
        hint: 'their operations are missing from its description; `appraisal api --list` shows what it publishes',
      },
    );
  }
}
