// The top-level nouns. Each is loaded only when the command line names it, so `appraisal props
// list --help` loads the props module alone and `--help` loads none.
// The noun's summary is written here and nowhere else: the root help lists it without loading the
// noun, and the noun's own help reads it from here too. The resource families' nouns come from the
// service model (src/model/families.ts): name, aliases, summary and standard verbs; a family with
// verbs of its own has its index.ts listed in FAMILY_MODULES.
import { FAMILIES, familySummary, isNoun, type FamilyName, type ResourceFamily } from '../core/resources.js';
import type { DeclaredNoun, NounHeading, NounModule } from '../core/verb.js';

export interface NounEntry extends NounHeading {
  load(): Promise<{ default: NounModule }>;
}

/** The families whose noun has verbs beyond the standard ones: their index.ts lists them all. */
const FAMILY_MODULES: Partial<Record<FamilyName, () => Promise<{ default: NounModule }>>> = {
  assignments: () => import('./assignments/index.js'),
  files: () => import('./files/index.js'),
};

/** A family's noun, from its model entry: its own module, else its standard verbs. */
function familyNoun(family: ResourceFamily): NounEntry {
  const own = FAMILY_MODULES[family.name];
  return {
    name: family.name,
    ...(family.aliases ? { aliases: family.aliases } : {}),
    summary: familySummary(family),
    load: own ?? (() => import('./shared/family-verbs.js').then((m) => ({ default: m.familyVerbs(family) }))),
  };
}

export const NOUNS: readonly NounEntry[] = [
  { name: 'auth', summary: 'Log in, show the credential in use, log out', load: () => import('./auth/index.js') },
  { name: 'profiles', summary: 'List, select and remove profiles', load: () => import('./profiles/index.js') },
  ...FAMILIES.filter(isNoun).map(familyNoun),
  { name: 'ref', summary: 'Reference data: enums and designations', load: () => import('./ref/index.js') },
  {
    name: 'keys',
    summary: 'Manage API keys: list, get, create, revoke, rotate, audit, scan, lease',
    load: () => import('./keys/index.js'),
  },
  { name: 'api', summary: 'Raw access to published operations', load: () => import('./api/index.js') },
  { name: 'spec', summary: "The service's published API description: sync, show, check, diff", load: () => import('./spec/index.js') },
  {
    name: 'export',
    summary: 'Snapshot several collections into a directory with a manifest (whole or incremental)',
    load: () => import('./export/index.js'),
  },
  {
    name: 'sync',
    summary: 'Keep the organization as tables in DuckDB or PostgreSQL (incremental, crash-safe)',
    load: () => import('./sync/index.js'),
  },
  {
    name: 'sql',
    summary: 'Query the database sync keeps: one read-only SQL statement, printed like a list',
    load: () => import('./sql/index.js'),
  },
  { name: 'watch', summary: 'Poll a collection and emit change events as NDJSON', load: () => import('./watch/index.js') },
  { name: 'smoke', summary: 'CI smoke check of a non-production environment', load: () => import('./smoke/index.js') },
  { name: 'mock', summary: 'Run the bundled mock of the appraisal service', load: () => import('./mock/index.js') },
  {
    name: 'version',
    summary: 'Print the version, commit, build date, Node version, platform and install kind',
    load: () => import('./version/index.js'),
  },
  {
    name: 'mcp',
    summary: 'Serve the CLI to AI assistants over MCP (stdio): read-only tools by default',
    load: () => import('./mcp/index.js'),
  },
  {
    name: 'doctor',
    summary: 'Check the setup: config, key, keychain, proxies, CA, network, TLS, clock, description',
    load: () => import('./doctor/index.js'),
  },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./completion/index.js') },
];

export function findNoun(token: string | undefined): NounEntry | undefined {
  if (token === undefined) return undefined;
  return NOUNS.find((noun) => noun.name === token || noun.aliases?.includes(token));
}

/**
 * Every noun with its module loaded, in registry order: the one list of declarations. main.ts hands it
 * to the context (ctx.declarations(): completion, spec check, MCP, lease scopes), help.json is rendered
 * from it, and tests read it; `verbsOf` (core/verb.ts) flattens it into verbs.
 */
export async function loadAllNouns(): Promise<DeclaredNoun<NounEntry>[]> {
  return Promise.all(NOUNS.map(async (noun) => ({ noun, module: (await noun.load()).default })));
}
