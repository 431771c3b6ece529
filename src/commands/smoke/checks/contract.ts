// Contract checks (skipped with --no-contract): the spec check reads the description every command
// binds to and checks that every operation the CLI's families call is published; then every record
// smoke reads (lists, gets, the checks file's answers) is validated against its operation's response
// schema (ajv, loaded lazily by core/description/validate.ts). Violations fail the check that read
// them: count, first few with the record's id and the JSON path.
import type { HttpMethod } from '../../../core/api-client.js';
import { ContractError, UnpublishedOperationError } from '../../../core/errors.js';
import { BUNDLED_SOURCE } from '../../../core/description/load.js';
import type { PublishedOperation } from '../../../core/description/document.js';
import { createValidator, type Violation } from '../../../core/description/validate.js';
import { plural, type SmokeCheck, type SmokeState } from './check.js';
import { publishedOperation } from './description.js';

/** How many violations a failure names; the count says how many more there were. */
const SHOWN = 3;

export const SPEC_CHECK: SmokeCheck = {
  name: 'spec check',
  skip: (state) => (state.reached ? undefined : 'the reachable check failed'),
  async run(state) {
    const { loaded, bound, missing } = await state.describe();
    state.contract = { validator: await createValidator(loaded.contract) };
    // Discovery failed: this check fails with why; the others go on against the copy in use.
    if (loaded.discoveryError) throw loaded.discoveryError;
    const where =
      loaded.kind === 'bundled'
        ? `the service publishes none: ${BUNDLED_SOURCE}`
        : `${loaded.source}${loaded.fromCache ? ` (cached copy of ${loaded.fetchedAt ?? 'unknown date'})` : ''}`;
    if (missing.length > 0) {
      const list = missing
        .map(({ declared, operationId }) => `${declared.method} ${declared.path}${operationId ? ` (${operationId})` : ''}`)
        .join(', ');
      throw new UnpublishedOperationError(
        `the description (${where}) lacks ${plural(missing.length, 'operation')} the CLI calls: ${list}`,
        {
          hint: 'the commands that call them are refused (exit 12); see `appraisal spec check`',
        },
      );
    }
    const { title, version, operations } = loaded.contract;
    return `${title ?? 'the description'}${version ? ` ${version}` : ''} (${where}): ${plural(operations.length, 'operation')}, all ${bound.length} the CLI calls published`;
  },
};

/** The id of the record a violation is in: the deepest object on its JSON path that has a string id. */
function idAt(value: unknown, path: string): string | undefined {
  let id: string | undefined;
  let node = value;
  const step = (n: unknown) => {
    const candidate = (n as { id?: unknown } | null)?.id;
    if (typeof n === 'object' && n !== null && typeof candidate === 'string') id = candidate;
  };
  step(node);
  for (const match of path.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    const key = match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string));
    if (typeof node !== 'object' || node === null) break;
    node = (node as Record<string | number, unknown>)[key];
    step(node);
  }
  return id;
}

export interface SchemaChecker {
  /** One record of a list, or the record a get/create/update answered (unwrapped). */
  record(record: unknown): void;
  /** A whole success answer, as the service sent it (the checks file's plain requests). */
  answer(body: unknown): void;
  /** Throws when anything broke the schema; otherwise says what was checked ("" when nothing was). */
  finish(): string;
}

/**
 * Validates what one request read against its published operation's response schema. Checks nothing
 * (and says nothing) without a contract (--no-contract, or the spec check could not read it).
 */
export function schemaChecker(state: SmokeState, method: HttpMethod, path: string): SchemaChecker {
  const validator = state.contract?.validator;
  const operation: PublishedOperation | undefined = validator ? publishedOperation(state, method, path) : undefined;
  const label = operation ? (operation.operationId ?? `${operation.method} ${operation.path}`) : '';
  const found: string[] = [];
  let read = 0;
  let broken = 0;
  let total = 0;
  let whole = false;
  const note = (violations: readonly Violation[], id: (violation: Violation) => string | undefined) => {
    read++;
    if (violations.length === 0) return;
    broken++;
    total += violations.length;
    for (const violation of violations)
      if (found.length < SHOWN) found.push(`${id(violation) ?? '(no id)'} ${violation.path} ${violation.message}`);
  };
  return {
    record(record) {
      if (!validator || !operation) return;
      note(validator.record(operation, record), () => idAt(record, '$'));
    },
    answer(body) {
      if (!validator || !operation) return;
      whole = true;
      note(validator.response(operation, body), (violation) => idAt(body, violation.path));
    },
    finish() {
      if (!validator || !operation || read === 0) return '';
      if (broken === 0) return 'valid against the published schema';
      const what = whole
        ? `the answer breaks the published schema of ${label} (${plural(total, 'violation')})`
        : `${broken} of ${plural(read, 'record')} break the published schema of ${label}`;
      throw new ContractError(`${what}: ${found.join('; ')}`, {
        hint: 'the service answers what its own description does not allow; report it with the ids above',
      });
    },
  };
}
