// What a resource family is, to the shared verbs: where it lives, what its records are called and
// which columns an ops team wants to see by default.
import { UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import type { View } from '../../output/index.js';
import { fillPath } from '../../core/description/operations.js';

export interface ListFilter {
  /** commander flag spec, e.g. `--type <type>`. */
  flags: string;
  description: string;
  /** Query parameter sent to the service. */
  param: string;
  /** Checked before any request. */
  kind?: 'text' | 'uuid' | 'timestamp';
}

/** `--updated-since`, for every collection that publishes `updatedSince`. */
export const UPDATED_SINCE: ListFilter = {
  flags: '--updated-since <timestamp>',
  description: 'only records updated at or after this ISO 8601 time',
  param: 'updatedSince',
  kind: 'timestamp',
};

/** A family whose collection lives under one parent record (contacts of a client). */
export interface ParentSpec {
  /** The flag naming the parent: `client` → `--client <id>`. */
  option: string;
  singular: string;
  /** The parent's command noun, for hints: `clients`. */
  noun: string;
  /** The parent's collection path, e.g. `/api/clients`. */
  path: string;
  /** The sub-collection under one parent record, e.g. `contacts`. */
  segment: string;
}

export interface ResourceSpec {
  /** Singular, for messages: "property". */
  singular: string;
  /** Collection path, e.g. `/api/properties`; records live at `{path}/{id}`. */
  path: string;
  view: View;
  filters?: readonly ListFilter[];
  /** Set when list and create go through a parent record's sub-collection. */
  parent?: ParentSpec;
}

export function recordTemplate(spec: ResourceSpec): string {
  return `${spec.path}/{id}`;
}

export function recordPath(spec: ResourceSpec, id: string): string {
  return fillPath(recordTemplate(spec), { id });
}

/** Where list and create go: the collection, or the parent record's sub-collection. */
export function collectionTemplate(spec: ResourceSpec): string {
  return spec.parent ? `${spec.parent.path}/{id}/${spec.parent.segment}` : spec.path;
}

/** The parent's flag, for list and create of a family that has one. */
export function parentFlag(spec: ResourceSpec): string | undefined {
  return spec.parent && `--${spec.parent.option} <id>`;
}

/** The collection path for this invocation, with the parent id from its flag checked. */
export function collectionPath(spec: ResourceSpec, options: Record<string, unknown>, verb: string): string {
  const parent = spec.parent;
  if (!parent) return spec.path;
  const raw = options[parent.option];
  if (raw === undefined) {
    throw new UsageError(`${spec.view.label} ${verb} needs --${parent.option} ID`, {
      hint: `${spec.view.label} belong to a ${parent.singular}; find its id with \`appraisal ${parent.noun} list\``,
    });
  }
  return fillPath(collectionTemplate(spec), { id: requireUuid(String(raw), `--${parent.option}`) });
}
