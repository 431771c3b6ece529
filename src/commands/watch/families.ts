// The collections `appraisal watch` can poll: where each lives, where one record lives (to confirm a
// deletion), and whether its list operation accepts `updatedSince` (per openapi.json). One table, so a
// family that gains or loses the filter is a one-line change.

export const FAMILY_NAMES = ['props', 'assignments', 'clients', 'contacts', 'files'] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];

export interface Family {
  name: FamilyName;
  /** Plural, for messages: "properties". */
  label: string;
  /** The list operation accepts `updatedSince` (inclusive: records updated at or after it). */
  updatedSince: boolean;
  /** Contacts are listed per client: the watch needs `--client ID`. */
  parent: 'client' | undefined;
  listPath(parentId: string | undefined): string;
  recordPath(id: string): string;
}

const enc = encodeURIComponent;

function family(name: FamilyName, label: string, collection: string): Family {
  return {
    name,
    label,
    updatedSince: true,
    parent: undefined,
    listPath: () => collection,
    recordPath: (id) => `${collection}/${enc(id)}`,
  };
}

export const FAMILIES: Readonly<Record<FamilyName, Family>> = {
  props: family('props', 'properties', '/api/properties'),
  assignments: family('assignments', 'assignments', '/api/assignments'),
  clients: family('clients', 'clients', '/api/clients'),
  files: family('files', 'files', '/api/files'),
  contacts: {
    name: 'contacts',
    label: 'contacts',
    updatedSince: true,
    parent: 'client',
    listPath: (clientId) => {
      if (clientId === undefined) throw new Error('contacts need a client id');
      return `/api/clients/${enc(clientId)}/contacts`;
    },
    recordPath: (id) => `/api/contacts/${enc(id)}`,
  },
};

const ALIASES: Readonly<Record<string, FamilyName>> = { properties: 'props' };

export function findFamily(name: string): Family | undefined {
  const key = (ALIASES[name] ?? name) as FamilyName;
  return Object.hasOwn(FAMILIES, key) ? FAMILIES[key] : undefined;
}

/** What a state file is bound to besides the family (`client:<id>` for contacts). */
export function scopeOf(family: Family, parentId: string | undefined): string | null {
  return family.parent === undefined || parentId === undefined ? null : `${family.parent}:${parentId}`;
}
