// What an import sets up before its first row: the results path's run lock (one import per journal),
// the identity its journal is checked against, --property-match's index of properties, and the list
// command a person runs to look for a create whose answer was lost.
import { stat } from 'node:fs/promises';
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { originOf } from '../../core/credentials/origin.js';
import { holdRunLock } from '../../core/file-lock.js';
import { referredFamily, type ResourceFamily } from '../../core/resources.js';
import type { ImportFlags } from './import-flags.js';
import type { ImportIdentity } from './journal.js';
import { buildIndex, matchKey, type MatchIndex } from './match-index.js';

export function lockResults(flags: ImportFlags): Promise<() => Promise<void>> {
  const results = flags.results!;
  return holdRunLock(results.lock, {
    target: `--results ${results.display}`,
    busy: `another import is using the journal of ${results.display}`,
    meanwhile: 'wait for it to finish, or choose another --results',
  });
}

export async function identityOf(ctx: Context, family: ResourceFamily, flags: ImportFlags): Promise<ImportIdentity> {
  const session = await ctx.session();
  const info = flags.inputPath ? await stat(flags.inputPath).catch(() => undefined) : undefined;
  return {
    family: family.name,
    input: flags.inputPath ?? '-',
    inputSize: info?.size ?? null,
    inputMtimeMs: info ? Math.floor(info.mtimeMs) : null,
    format: flags.format,
    // Only when not the default, so a journal written before --encoding existed still resumes.
    ...(flags.encoding !== 'utf-8' ? { encoding: flags.encoding } : {}),
    match: flags.match?.join('.') ?? null,
    map: flags.mapDisplay ?? null,
    origin: originOf(session.baseUrl),
    profile: session.profileName,
  };
}

/**
 * A family that `refers` to another (assignments' `propertyIds`, the model says) with --property-match:
 * the ids given as the referred records' match values.
 */
export function propertyRelation(api: ApiClient, ctx: Context, family: ResourceFamily, field: readonly string[]) {
  let index: Promise<MatchIndex> | undefined;
  const referred = referredFamily(family);
  const slot = family.refers?.field;
  if (!referred || slot === undefined) throw new Error(`${family.name} refers to no other family`);
  const { label, singular } = referred.view;
  return async (record: Record<string, unknown>): Promise<string[]> => {
    const values = record[slot];
    if (values === undefined) return [];
    if (!Array.isArray(values)) return [`${slot}: must be a list of the ${label}' match values`];
    index ??= buildIndex(field, api.paginate(referred.path, { pageSize: 100, concurrency: ctx.globals.concurrency, signal: ctx.signal }));
    const found = await index;
    const problems: string[] = [];
    const ids = values.map((value) => {
      const key = matchKey(value);
      const hit = key === undefined ? undefined : found.get(key);
      if (hit === undefined || hit === 'ambiguous')
        problems.push(`${slot}: ${hit ? `more than one ${singular} has` : `no ${singular} with`} ${field.join('.')} ${String(value)}`);
      return hit === undefined || hit === 'ambiguous' ? value : hit.id;
    });
    record[slot] = ids;
    return problems;
  };
}

export function listCommand(family: ResourceFamily, since: Date, client: string | undefined): string {
  const parent = family.parent ? ` --${family.parent.option} ${client ?? 'ID'}` : '';
  return `appraisal ${family.command} list${parent} --updated-since ${since.toISOString()}`;
}
