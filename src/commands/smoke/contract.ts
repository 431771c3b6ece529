// Contract checks (skipped with --no-contract): the service's published description is read and
// checked against what the CLI binds to (every family operation it calls is published), and every
// record the list checks read is validated against that operation's response schema (ajv, loaded
// lazily by core/description/validate.ts). Violations fail the check: count, first few with the
// record's id and the JSON path.
import { ContractError } from '../../core/errors.js';
import { findByOperationId, readContract } from '../../core/description/document.js';
import { createValidator } from '../../core/description/validate.js';
import { FAMILIES } from '../../core/resources.js';
import { plural, type SmokeCheck, type SmokeState } from './check.js';

const DESCRIPTION_PATH = '/api/openapi.json';
/** How many violations a failure names; the count says how many more there were. */
const SHOWN = 3;

export const SPEC_CHECK: SmokeCheck = {
  name: 'spec check',
  skip: (state) => (state.reached ? undefined : 'the reachable check failed'),
  request: () => ({ method: 'GET', path: DESCRIPTION_PATH, auth: false }),
  async run(state) {
    const { body } = await (await state.client()).request({ method: 'GET', path: DESCRIPTION_PATH, auth: false, signal: state.ctx.signal });
    const contract = readContract(body);
    const used = FAMILIES.flatMap((family) => Object.values(family.operations));
    const missing = used.filter((id) => findByOperationId(contract, id) === undefined);
    if (missing.length > 0) {
      throw new ContractError(`the published description lacks ${plural(missing.length, 'operation')} the CLI calls: ${missing.join(', ')}`);
    }
    state.contract = { validator: await createValidator(contract), operation: (id) => findByOperationId(contract, id) };
    const version = contract.version ? ` ${contract.version}` : '';
    return `${contract.title ?? 'the description'}${version}: ${plural(contract.operations.length, 'operation')}, all ${used.length} the CLI calls published`;
  },
};

/** Checks records against an operation's response schema, collecting violations as it goes. */
export function recordChecker(state: SmokeState, operationId: string) {
  const operation = state.contract?.operation(operationId);
  const found: string[] = [];
  let records = 0;
  let broken = 0;
  return {
    check(record: unknown): void {
      if (!state.contract || !operation) return;
      records++;
      const violations = state.contract.validator.record(operation, record);
      if (violations.length === 0) return;
      broken++;
      const id = typeof (record as { id?: unknown })?.id === 'string' ? (record as { id: string }).id : '(no id)';
      for (const violation of violations) if (found.length < SHOWN) found.push(`${id} ${violation.path} ${violation.message}`);
    },
    /** Throws when any record broke the schema. */
    finish(): void {
      if (broken === 0) return;
      throw new ContractError(`${broken} of ${plural(records, 'record')} break the published schema of ${operationId}: ${found.join('; ')}`, {
        hint: 'the service answers what its own description does not allow; report it with the ids above',
      });
    },
  };
}
