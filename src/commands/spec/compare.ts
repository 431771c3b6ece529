// How one published operation differs from another (our model vs the service's description in
// `spec check`; the cached copy vs the current one in `spec diff`): schemas compared in canonical
// form (refs inlined, prose ignored), query parameters by name and schema.
import { queryParameterNames, type PublishedContract, type PublishedOperation } from '../../core/description/document.js';
import { canonicalSchema } from '../../core/description/schema.js';

export interface OperationChanges {
  requestSchema: boolean;
  responseSchema: boolean;
  queryAdded: string[];
  queryRemoved: string[];
  /** Query parameters published by both whose schema differs (a type, an enum, a bound). */
  queryChanged: string[];
  /** Parameters that became required (or were added as required): breaking for callers. */
  newlyRequired: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function compareOperations(
  before: PublishedOperation,
  beforeIn: PublishedContract,
  after: PublishedOperation,
  afterIn: PublishedContract,
): OperationChanges {
  const beforeQuery = queryParameterNames(before);
  const afterQuery = queryParameterNames(after);
  const querySchema = (operation: PublishedOperation, name: string, contract: PublishedContract) =>
    canonicalSchema(contract.document, operation.parameters.find((p) => p.in === 'query' && p.name === name)?.schema);
  const wasRequired = new Set(before.parameters.filter((p) => p.required).map((p) => `${p.in}:${p.name}`));
  return {
    requestSchema: !same(canonicalSchema(beforeIn.document, before.requestSchema), canonicalSchema(afterIn.document, after.requestSchema)),
    responseSchema: !same(
      canonicalSchema(beforeIn.document, before.responseSchema),
      canonicalSchema(afterIn.document, after.responseSchema),
    ),
    queryAdded: afterQuery.filter((name) => !beforeQuery.includes(name)),
    queryRemoved: beforeQuery.filter((name) => !afterQuery.includes(name)),
    queryChanged: afterQuery.filter(
      (name) => beforeQuery.includes(name) && !same(querySchema(before, name, beforeIn), querySchema(after, name, afterIn)),
    ),
    newlyRequired: after.parameters
      .filter((p) => p.required && p.in !== 'path' && !wasRequired.has(`${p.in}:${p.name}`))
      .map((p) => p.name),
  };
}

export function hasChanges(changes: OperationChanges): boolean {
  return (
    changes.requestSchema ||
    changes.responseSchema ||
    changes.queryAdded.length + changes.queryRemoved.length + changes.queryChanged.length + changes.newlyRequired.length > 0
  );
}

/** Breaking for a caller written against `before`. */
export function isBreaking(changes: OperationChanges): boolean {
  return (
    changes.requestSchema ||
    changes.responseSchema ||
    changes.queryRemoved.length + changes.queryChanged.length + changes.newlyRequired.length > 0
  );
}

export function describeChanges(changes: OperationChanges): string {
  const parts: string[] = [];
  if (changes.requestSchema) parts.push('request schema changed');
  if (changes.responseSchema) parts.push('response schema changed');
  if (changes.queryRemoved.length > 0) parts.push(`query parameters removed: ${changes.queryRemoved.join(', ')}`);
  if (changes.queryChanged.length > 0) parts.push(`query parameters changed: ${changes.queryChanged.join(', ')}`);
  if (changes.queryAdded.length > 0) parts.push(`query parameters added: ${changes.queryAdded.join(', ')}`);
  if (changes.newlyRequired.length > 0) parts.push(`now required: ${changes.newlyRequired.join(', ')}`);
  return parts.join('; ');
}

export function operationLabel(operation: { method: string; path: string }): string {
  return `${operation.method} ${operation.path}`;
}
