// The built-in checks of `appraisal smoke`, in order, as one table. The families listed come from
// the resource table and what a key may do from the scope rules (core/); nothing here repeats them.
import { listContractOf } from '../../../core/description/routed-client.js';
import { FAMILIES, REFERENCE_ENUMS_PATH, type ResourceFamily } from '../../../core/resources.js';
import { allows, canManageKeys, needs } from '../../../core/scopes.js';
import { ContractError, HttpError, MissingCredentialError, NetworkError } from '../../../core/errors.js';
import { isObject, plural, withoutCredential, type SmokeCheck, type SmokeState } from './check.js';
import { WRITE_CHECKS } from './write.js';
import { SPEC_CHECK, schemaChecker } from './contract.js';
import { CURRENT_KEY_PATH, KEYS_PATH, requirePublished } from './description.js';
import { DAY_MS, spanInWords } from '../../../core/duration.js';

/** One page of this many records is enough to prove a collection reads and parses. */
const PAGE_SIZE = 10;
/** Within this, a key is "about to expire": the check passes, with a warning. */
export const EXPIRY_WARNING_DAYS = 14;
/** Within this, a key would break a CI run half-way: the check fails. */
export const EXPIRY_FAIL_HOURS = 24;

const environment: SmokeCheck = {
  name: 'environment',
  untimed: true,
  run: async ({ session }) => `${session.environment} profile "${session.profileName}" at ${session.baseUrl}`,
};

// Reachable over TLS: any HTTP answer proves it; only a network/TLS failure, 429 or 5xx fails.
const reachable: SmokeCheck = {
  name: 'reachable',
  request: () => ({ method: 'GET', path: '/api/openapi.json', auth: false }),
  async run(state) {
    const { ctx, session, client } = state;
    const url = new URL(session.baseUrl);
    const tls = url.protocol === 'https:';
    if (!tls && session.environment !== 'local') {
      throw new NetworkError(`${url.origin} is plain HTTP: the ${session.environment} service must be reached over TLS`);
    }
    let status: number;
    try {
      status = (await (await client()).request({ method: 'GET', path: '/api/openapi.json', auth: false, signal: ctx.signal })).status;
    } catch (error) {
      if (!(error instanceof HttpError) || error.status === 429 || error.status >= 500) throw error;
      status = error.status;
    }
    state.reached = true;
    return `${url.host} answered HTTP ${status} ${tls ? 'over TLS (certificate verified)' : 'over plain HTTP (local only)'}`;
  },
};

// The credential works, and says what it may do.
const credential: SmokeCheck = {
  name: 'credential',
  request: () => ({ method: 'GET', path: CURRENT_KEY_PATH }),
  async run(state) {
    const { session } = state;
    if (!session.credential) {
      throw new MissingCredentialError(`no credential for profile "${session.profileName}"`, {
        hint: `set APPRAISAL_API_KEY, pass --api-key-file, or run \`appraisal auth login --profile ${session.profileName}\``,
      });
    }
    requirePublished(state, 'GET', CURRENT_KEY_PATH);
    const current = await (await state.client()).get<unknown>(CURRENT_KEY_PATH);
    if (!isObject(current) || !Array.isArray(current.scopes) || !current.scopes.every((s) => typeof s === 'string')) {
      throw new ContractError(`GET ${CURRENT_KEY_PATH} did not answer a key record with a scopes list`);
    }
    state.key = current;
    state.scopes = current.scopes as string[];
    const schema = schemaChecker(state, 'GET', CURRENT_KEY_PATH);
    schema.record(current);
    schema.finish();
    const prefix = typeof current.prefix === 'string' ? current.prefix : session.credential.prefix;
    return `key ${prefix}… works; scopes: ${state.scopes.join(', ') || '(none)'}`;
  },
};

const keyExpiry: SmokeCheck = {
  name: 'key expiry',
  skip: (state) => (state.key ? undefined : 'the credential check failed'),
  async run({ ctx, key }) {
    const raw = key?.expiresAt;
    if (raw === undefined || raw === null || raw === '') return 'the key does not expire';
    const expires = new Date(String(raw));
    if (Number.isNaN(expires.getTime())) throw new ContractError(`the key's expiresAt is not a date: "${String(raw).slice(0, 40)}"`);
    const left = expires.getTime() - ctx.now().getTime();
    if (left <= 0) {
      throw new MissingCredentialError(`the key expired on ${expires.toISOString()}`, {
        hint: 'create a new key (appraisal keys create) and give it to the CI job',
      });
    }
    if (left < EXPIRY_FAIL_HOURS * 60 * 60 * 1000) {
      throw new MissingCredentialError(`the key expires in ${spanInWords(left)} (${expires.toISOString()})`, {
        hint: 'rotate it now: appraisal keys rotate',
      });
    }
    if (left < EXPIRY_WARNING_DAYS * DAY_MS) {
      ctx.io.warn(`the key expires in ${spanInWords(left)} (${expires.toISOString()}); rotate it with appraisal keys rotate`);
      return `expires in ${spanInWords(left)} (${expires.toISOString()}): rotate it soon`;
    }
    return `expires in ${spanInWords(left)} (${expires.toISOString()})`;
  },
};

/** Page 1 of a collection through paginate(), so the envelope is checked; "page 1: 3 records of 40". */
export async function firstPage(state: SmokeState, path: string, noun: string): Promise<string> {
  requirePublished(state, 'GET', path);
  const client = await state.client();
  // A list answered in one piece has no page 1 to ask for (its operation may publish no page/limit):
  // read the one answer whole, so every record is checked against the schema.
  const whole = listContractOf(client, path)?.onePiece === true;
  const pages = client.paginate(path, whole ? { signal: state.ctx.signal } : { page: 1, pageSize: PAGE_SIZE, signal: state.ctx.signal });
  const schema = schemaChecker(state, 'GET', path);
  let count = 0;
  let step = await pages.next();
  while (!step.done) {
    count++;
    schema.record(step.value);
    step = await pages.next();
  }
  const checked = schema.finish();
  const total = step.value.total;
  if (whole) return `${plural(count, noun)} in one answer${checked ? `, ${checked}` : ''}`;
  return `page 1: ${plural(count, noun)}${total === undefined ? '' : ` of ${total}`}${checked ? `, ${checked}` : ''}`;
}

/** One page of a family the key may read. Families listed per parent record need a parent id: not checked. */
function listFamily(family: ResourceFamily): SmokeCheck {
  return {
    name: `list ${family.view.label}`,
    probe: true,
    request: () => ({ method: 'GET', path: `${family.path}?page=1&limit=${PAGE_SIZE}` }),
    skip: (state) =>
      withoutCredential(state) ??
      (allows(state.scopes!, family.scope, 'read') ? undefined : `the key cannot read ${family.scope} (${needs(family.scope, 'read')})`),
    run: (state) => firstPage(state, family.path, 'record'),
  };
}

const getEnums: SmokeCheck = {
  name: 'get enums',
  probe: true,
  request: () => ({ method: 'GET', path: REFERENCE_ENUMS_PATH }),
  skip: (state) =>
    withoutCredential(state) ??
    (allows(state.scopes!, 'reference', 'read') ? undefined : `the key cannot read reference data (${needs('reference', 'read')})`),
  async run(state) {
    requirePublished(state, 'GET', REFERENCE_ENUMS_PATH);
    const enums = await (await state.client()).get<unknown>(REFERENCE_ENUMS_PATH);
    if (!isObject(enums)) throw new ContractError(`GET ${REFERENCE_ENUMS_PATH} did not answer an object of lists`);
    const schema = schemaChecker(state, 'GET', REFERENCE_ENUMS_PATH);
    schema.record(enums);
    schema.finish();
    const lists = Object.entries(enums).filter(([, value]) => Array.isArray(value));
    if (Array.isArray(enums.propertyTypes)) state.propertyTypes = enums.propertyTypes.filter((t): t is string => typeof t === 'string');
    return lists.map(([name, value]) => `${name} ${(value as unknown[]).length}`).join(', ') || 'no lists';
  },
};

const listKeys: SmokeCheck = {
  name: 'list keys',
  probe: true,
  request: () => ({ method: 'GET', path: `${KEYS_PATH}?page=1&limit=${PAGE_SIZE}` }),
  skip: (state) =>
    withoutCredential(state) ?? (canManageKeys(state.scopes) ? undefined : 'the key cannot manage keys (needs api:admin or keys:admin)'),
  run: (state) => firstPage(state, KEYS_PATH, 'key'),
};

/** The built-in checks before smoke binds to the service's description (and resolves a checks file). */
const BEFORE_BINDING: readonly SmokeCheck[] = [environment, reachable, SPEC_CHECK];

/** Every built-in check after them, in the order they run. */
const AFTER_BINDING: readonly SmokeCheck[] = [
  credential,
  keyExpiry,
  ...FAMILIES.filter((family) => family.parent === undefined).map(listFamily),
  getEnums,
  listKeys,
  ...WRITE_CHECKS,
];

/**
 * The built-in checks of one run, before and after binding: the write checks only with --write, the
 * spec check unless --no-contract, the readiness wait (--wait-ready) right after the environment.
 */
export function selectChecks(options: { write: boolean; contract: boolean; ready?: SmokeCheck | undefined }): {
  before: SmokeCheck[];
  after: SmokeCheck[];
} {
  const wanted = (check: SmokeCheck) => (options.write || !check.write) && (options.contract || check !== SPEC_CHECK);
  const [first, ...rest] = BEFORE_BINDING.filter(wanted);
  return { before: [first!, ...(options.ready ? [options.ready] : []), ...rest], after: AFTER_BINDING.filter(wanted) };
}
