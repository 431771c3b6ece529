// --write: a throwaway property, created, read back, changed and deleted. Never created unless the
// key may also delete it; deleted whatever the read and update checks found.
import { ContractError } from '../../../core/errors.js';
import { RESOURCES, recordPath, recordTemplate } from '../../../core/resources.js';
import { allows, needs } from '../../../core/scopes.js';
import { isObject, withoutCredential, type SmokeCheck, type SmokeState } from './check.js';
import { schemaChecker } from './contract.js';
import { requirePublished } from './description.js';

const PROPERTIES = RESOURCES.props;

/** Why no write check runs, if none may. */
function writeRefusal(state: SmokeState): string | undefined {
  const missing = withoutCredential(state);
  if (missing) return missing;
  if (!allows(state.scopes!, PROPERTIES.scope, 'write')) return `the key cannot create properties (${needs(PROPERTIES.scope, 'write')})`;
  if (!allows(state.scopes!, PROPERTIES.scope, 'delete')) {
    return `the key cannot delete properties (${needs(PROPERTIES.scope, 'delete')}), so a throwaway property would be left behind`;
  }
  return undefined;
}

const afterCreate = (state: SmokeState) => writeRefusal(state) ?? (state.created ? undefined : 'nothing was created');

/** The record a write check read, against its operation's published response schema (contract checks). */
function checkRecord(state: SmokeState, method: 'GET' | 'POST' | 'PATCH', path: string, record: unknown): void {
  const schema = schemaChecker(state, method, path);
  schema.record(record);
  schema.finish();
}

export const WRITE_CHECKS: readonly SmokeCheck[] = [
  {
    name: 'create property',
    write: true,
    probe: true,
    request: () => ({ method: 'POST', path: PROPERTIES.path }),
    skip: writeRefusal,
    async run(state) {
      requirePublished(state, 'POST', PROPERTIES.path);
      const name = `appraisal-smoke ${state.ctx.now().toISOString()}`;
      const record = await (
        await state.client()
      ).send<unknown>('POST', PROPERTIES.path, {
        name,
        propertyType: state.propertyTypes[0] ?? 'Office',
        address: { line1: '1 Smoke Test Way', city: 'Testville', region: 'CA', postalCode: '94000', country: 'US' },
      });
      if (!isObject(record) || typeof record.id !== 'string' || record.id === '') {
        throw new ContractError(`POST ${PROPERTIES.path} did not answer a record with an id`);
      }
      state.created = { id: record.id, name, path: recordPath(PROPERTIES, record.id) };
      checkRecord(state, 'POST', PROPERTIES.path, record);
      return `created ${record.id}`;
    },
  },
  {
    name: 'get property',
    write: true,
    probe: true,
    request: (state) => ({ method: 'GET', path: state.created!.path }),
    skip: afterCreate,
    async run(state) {
      const { id, name, path } = state.created!;
      requirePublished(state, 'GET', recordTemplate(PROPERTIES));
      const record = await (await state.client()).get<unknown>(path);
      if (!isObject(record) || record.id !== id) throw new ContractError(`GET ${path} answered another record`);
      if (record.name !== name) throw new ContractError(`GET ${path}: the name read back differs from the one created`);
      checkRecord(state, 'GET', path, record);
      return `read back ${id}`;
    },
  },
  {
    name: 'update property',
    write: true,
    probe: true,
    request: (state) => ({ method: 'PATCH', path: state.created!.path }),
    skip: afterCreate,
    async run(state) {
      const { id, name, path } = state.created!;
      const changed = `${name} (updated)`;
      requirePublished(state, 'PATCH', recordTemplate(PROPERTIES));
      const record = await (await state.client()).send<unknown>('PATCH', path, { name: changed });
      if (!isObject(record) || record.id !== id) throw new ContractError(`PATCH ${path} answered another record`);
      if (record.name !== changed) throw new ContractError(`PATCH ${path}: the change did not stick`);
      checkRecord(state, 'PATCH', path, record);
      return `renamed ${id}`;
    },
  },
  {
    name: 'delete property',
    write: true,
    probe: true,
    request: (state) => ({ method: 'DELETE', path: state.created!.path }),
    skip: afterCreate,
    async run(state) {
      const { id, path } = state.created!;
      requirePublished(state, 'DELETE', recordTemplate(PROPERTIES));
      await (await state.client()).send('DELETE', path);
      return `deleted ${id}`;
    },
  },
];
