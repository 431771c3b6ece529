// The collections `appraisal watch` can poll, read from the one resource table (core/resources.ts):
// every family whose records can be fetched one by one (to confirm a deletion). This file only
// adapts a table row to what the poller asks of it; it declares no family of its own.
import {
  FAMILIES,
  acceptsUpdatedSince,
  findFamily as findResourceFamily,
  hasRecords,
  listPath,
  recordPath,
  type FamilyName,
  type ResourceFamily,
} from '../../core/resources.js';

export type { FamilyName };

export interface Family {
  name: FamilyName;
  /** Plural, for messages: "properties". */
  label: string;
  /** The list operation accepts `updatedSince` (inclusive: records updated at or after it). */
  updatedSince: boolean;
  /** The parent's flag name when the family is listed per parent record (contacts: `client`). */
  parent: string | undefined;
  listPath(parentId: string | undefined): string;
  recordPath(id: string): string;
}

function watched(family: ResourceFamily): Family {
  return {
    name: family.name,
    label: family.view.label,
    updatedSince: acceptsUpdatedSince(family),
    parent: family.parent?.option,
    listPath: (parentId) => listPath(family, parentId),
    recordPath: (id) => recordPath(family, id),
  };
}

const WATCHABLE = FAMILIES.filter(hasRecords);

/** The names of the families watch can poll (not every family of the model: designations has no records). */
export const WATCHABLE_NAMES: readonly FamilyName[] = WATCHABLE.map((family) => family.name);

/** What the argument accepts: each watchable family's name and its aliases (`properties`). */
export const WATCH_CHOICES: readonly string[] = WATCHABLE.flatMap((family) => [family.name, ...(family.aliases ?? [])]);

/** A family by its name or alias (`properties`), if it can be watched. */
export function findWatchable(name: string): Family | undefined {
  const found = findResourceFamily(name);
  return found && hasRecords(found) ? watched(found) : undefined;
}

/** A family known to be watchable (tests, fixed names); throws for one that is not. */
export function watchFamily(name: FamilyName): Family {
  const family = findWatchable(name);
  if (!family) throw new Error(`${name} cannot be watched`);
  return family;
}

/** What a state file is bound to besides the family (`client:<id>` for contacts). */
export function scopeOf(family: Family, parentId: string | undefined): string | null {
  return family.parent === undefined || parentId === undefined ? null : `${family.parent}:${parentId}`;
}
