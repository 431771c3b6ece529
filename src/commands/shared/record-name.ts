// What names a record to a person asked before deleting it: the family's name fields (resource
// table `nameFields`: a property's name, a contact's first and last name, an assignment's number),
// read with one GET only when someone is asked. Best effort: a record that cannot be read (no read
// scope, gone already) is asked about by its id alone, and the delete then says what happened.
import type { Context } from '../../core/context.js';
import { recordPath, type ResourceFamily } from '../../core/resources.js';

/** A name longer than this is cut with `…`: the prompt stays one line. */
const MAX_NAME = 60;

export async function recordName(ctx: Context, family: ResourceFamily, id: string): Promise<string | undefined> {
  let record: unknown;
  try {
    const api = await ctx.api();
    record = await api.get(recordPath(family, id));
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const parts = family.nameFields
    .map((field) => (record as Record<string, unknown>)[field])
    .filter((value): value is string | number => (typeof value === 'string' && value.trim() !== '') || typeof value === 'number')
    .map((value) => String(value).trim());
  if (parts.length === 0) return undefined;
  const name = parts.join(' ');
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}
