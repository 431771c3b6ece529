// What the shared verbs need of a family beyond the table in core/resources.ts: the parent's flag,
// and the collection path of one invocation with that flag checked.
import { UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import { fillPath } from '../../core/description/operations.js';
import { collectionTemplate, parentFamily, type ResourceFamily } from '../../core/resources.js';

/** The parent's flag, for list and create of a family that has one. */
export function parentFlag(family: ResourceFamily): string | undefined {
  return family.parent && `--${family.parent.option} <id>`;
}

/** The collection path for this invocation, with the parent id from its flag checked. */
export function collectionPath(family: ResourceFamily, options: Record<string, unknown>, verb: string): string {
  const link = family.parent;
  const parent = parentFamily(family);
  if (!link || !parent) return family.path;
  const raw = options[link.option];
  if (raw === undefined) {
    throw new UsageError(`${family.view.label} ${verb} needs --${link.option} ID`, {
      hint: `${family.view.label} belong to a ${parent.singular}; find its id with \`appraisal ${parent.command} list\``,
    });
  }
  return fillPath(collectionTemplate(family), { id: requireUuid(String(raw), `--${link.option}`) });
}
