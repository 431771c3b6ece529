// Binds the operations a command declares (our model: method + path template) to the service's
// published description: first by method and path template, then by the modelled operationId, so a
// service that publishes `listAssignments` at `/api/appraisal-assignments` still works. A command
// whose operation is not published is refused here, before any request (exit 12).
import type { HttpMethod } from '../api-client.js';
import { UnpublishedOperationError } from '../errors.js';
import { findByOperationId, findByTemplate, templatePattern, type PublishedOperation } from './document.js';
import { bundledDescription, type LoadedDescription } from './load.js';
import type { Operation } from './operations.js';
import type { Validator } from './validate.js';

export interface BoundOperation {
  /** As the command declared it (our model). */
  declared: Operation;
  /** The modelled operationId (from the bundled openapi.json), when there is one. */
  operationId: string | undefined;
  published: PublishedOperation;
  /** `template`: published as modelled; `operationId`: found under another path. */
  how: 'template' | 'operationId';
}

export interface Route {
  bound: BoundOperation;
  /** The concrete path to send: the published template filled with the request's values. */
  path: string;
}

function placeholderCount(template: string): number {
  return (template.match(/\{[^}/]*\}/g) ?? []).length;
}

/** Fill a template's placeholders, in order, with already-encoded path segment values. */
function fillInOrder(template: string, values: readonly string[]): string {
  let index = 0;
  return template.replace(/\{[^}/]*\}/g, () => values[index++] ?? '');
}

export class Binding {
  /** Made on first use, once for the run: compiling schemas is the expensive part. */
  private made: Promise<Validator> | undefined;

  constructor(
    readonly command: string,
    readonly description: LoadedDescription,
    readonly operations: readonly BoundOperation[],
  ) {}

  /** The validator of the bound description's schemas (--validate, request bodies, sync): ajv is loaded only now. */
  validator(): Promise<Validator> {
    this.made ??= import('./validate.js').then(({ createValidator }) => createValidator(this.description.contract));
    return this.made;
  }

  /** Which bound operation `method path` is, and where the service publishes it; undefined if not declared. */
  route(method: HttpMethod, path: string): Route | undefined {
    const queryAt = path.search(/[?#]/);
    const bare = queryAt === -1 ? path : path.slice(0, queryAt);
    const rest = queryAt === -1 ? '' : path.slice(queryAt);
    let best: { bound: BoundOperation; values: string[]; literal: number } | undefined;
    for (const bound of this.operations) {
      const declaredMethod = bound.declared.method;
      if (declaredMethod !== method && !(method === 'HEAD' && declaredMethod === 'GET')) continue;
      const match = templatePattern(bound.declared.path).exec(bare);
      if (!match) continue;
      const literal = bound.declared.path.replace(/\{[^}/]*\}/g, '').length;
      if (!best || literal > best.literal) best = { bound, values: match.slice(1), literal };
    }
    if (!best) return undefined;
    return { bound: best.bound, path: `${fillInOrder(best.bound.published.path, best.values)}${rest}` };
  }
}

function describeOperation(declared: Operation, operationId: string | undefined): string {
  return `${declared.method} ${declared.path}${operationId ? ` (${operationId})` : ''}`;
}

export function unpublishedError(
  command: string,
  missing: ReadonlyArray<{ declared: Operation; operationId: string | undefined }>,
  source: string,
): UnpublishedOperationError {
  const list = missing.map((entry) => describeOperation(entry.declared, entry.operationId)).join(', ');
  return new UnpublishedOperationError(
    `\`appraisal ${command}\` needs ${list}, which the service does not publish (description: ${source}); nothing was sent`,
    {
      hint: 'see what the service publishes with `appraisal api --list` and `appraisal spec check`; if its description is wrong, pass a corrected one with --spec PATH',
    },
  );
}

/** Bind every declared operation, or refuse the command naming the ones the service does not publish. */
export async function bindOperations(command: string, declared: readonly Operation[], description: LoadedDescription): Promise<Binding> {
  const contract = description.contract;
  const bound: BoundOperation[] = [];
  const missing: Array<{ declared: Operation; operationId: string | undefined }> = [];
  for (const operation of declared) {
    const published = findByTemplate(contract, operation.method, operation.path);
    if (published) {
      bound.push({ declared: operation, operationId: published.operationId, published, how: 'template' });
      continue;
    }
    // Not where we modelled it: the same operationId elsewhere, with the same number of path parameters.
    const modelled = findByTemplate(await bundledDescription(), operation.method, operation.path);
    const operationId = modelled?.operationId;
    const moved = operationId === undefined ? undefined : findByOperationId(contract, operationId);
    if (moved && moved.method === operation.method && placeholderCount(moved.path) === placeholderCount(operation.path)) {
      bound.push({ declared: operation, operationId, published: moved, how: 'operationId' });
    } else {
      missing.push({ declared: operation, operationId });
    }
  }
  if (missing.length > 0) throw unpublishedError(command, missing, description.source);
  return new Binding(command, description, bound);
}
