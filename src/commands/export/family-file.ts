// One family of a snapshot written to its file: through the same list runner and sinks as `<family>
// list --out FILE` (the bound operation, paginate's integrity checks), its output plan made here per
// file: numbered parts with --split-*, else a resumable file (partial and checkpoint) continued with
// --resume, with the updatedSince watermark when the operation publishes it. Contacts, listed per
// client, have their own reader (contacts.ts) and one file written atomically (they are not resumed).
import type { Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { OutputFormat } from '../../core/global-options.js';
import type { ResumeMode, SplitLimits } from '../../core/output-plan.js';
import { collectionTemplate, type ResourceFamily } from '../../core/resources.js';
import { partialPaths, type FilePart } from '../../output/index.js';
import { existsSync } from 'node:fs';
import { listCollection } from '../shared/list-records.js';
import { exportContacts } from './contacts.js';
import { updatedSincePublished } from './incremental.js';
import type { FamilyDone } from './snapshot-dir.js';

/** The file a family is written to: `props.ndjson`. */
export function fileName(family: ResourceFamily, format: OutputFormat): string {
  return `${family.name}.${format}`;
}

/** Where one family's file is written (`path`, in the hidden sibling) and where it will be (`shown`, for notices). */
export interface FileTarget {
  path: string;
  shown: string;
  format: OutputFormat;
  /** --fields for this family; undefined: every field. */
  fields: readonly string[] | undefined;
}

/**
 * The context of one family's file: its output plan writes the file in the snapshot's format, whole
 * records unless --fields names this family's; notices name the file where the snapshot puts it
 * (`snap/props.ndjson`, not the hidden sibling it is built in); every page is read.
 */
export function fileContext(ctx: Context, file: FileTarget, how: { split?: SplitLimits | undefined; resume?: ResumeMode }): Context {
  const plan = ctx.output.forFile({ path: file.path, given: file.shown, format: file.format, fields: file.fields }, ctx.cwd, how);
  return { ...ctx, globals: { ...ctx.globals, page: undefined, maxItems: undefined }, output: plan };
}

export interface FamilyRun extends FileTarget {
  family: ResourceFamily;
  file: string;
  /** The updatedSince watermark of an incremental run. */
  watermark: string | null;
  /** Continue the family's partial file when one was kept (--resume). */
  resume: boolean;
  /** --split-rows/--split-size (a split family is not resumed: it starts over). */
  split: SplitLimits | undefined;
}

export async function exportFamily(ctx: Context, run: FamilyRun): Promise<FamilyDone> {
  const { family, watermark } = run;
  const query: Record<string, string> = {};
  let full: string | undefined;
  if (watermark !== null) {
    const { published, operation } = await updatedSincePublished(ctx, collectionTemplate(family));
    if (published) query.updatedSince = watermark;
    else {
      full = `${operation} publishes no updatedSince filter: exported in full`;
      ctx.io.notice(`${family.view.label}: ${full}`);
    }
  }
  const limits = run.split;
  let result: { written: number; total: number | undefined; warnings: readonly string[]; files?: FilePart[] };
  if (family.parent !== undefined) {
    result = await exportContacts(fileContext(ctx, run, { split: limits }), family, query as Query);
  } else {
    // Resumed only when this family's checkpoint is there: the others start without a notice.
    const resume = !limits && run.resume && existsSync(partialPaths(run.path).checkpoint);
    const how = limits ? { split: limits } : { resume: resume ? ('resume' as const) : ('restart' as const) };
    result = await listCollection(fileContext(ctx, run, how), family.path, query, family.view, { resume });
  }
  return {
    family: family.name,
    file: run.file,
    records: result.written,
    total: result.total ?? null,
    filters: { ...query },
    ...(run.fields ? { fields: run.fields } : {}),
    since: full === undefined ? watermark : null,
    ...(full === undefined ? {} : { full }),
    ...(limits && result.files ? { parts: result.files } : {}),
    ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
  };
}
