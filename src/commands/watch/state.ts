// What a watch remembers between polls and across restarts: the version seen per id, the high-water
// mark, and the poll count. Kept on disk (--state-file) as one small JSON document, replaced
// atomically (temp file, fsync, rename) so a crash leaves the old state or the new, never half.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';
import type { FamilyName } from './families.js';

export const STATE_VERSION = 1;

export interface WatchState {
  family: FamilyName;
  /** `client:<id>` for contacts; null otherwise. */
  scope: string | null;
  /** `updatedSince` for the next incremental poll; null until one can be trusted. */
  mark: string | null;
  /** The newest `updatedAt` seen so far. It becomes the mark after the next clean poll (see poller.ts). */
  latest: string | null;
  /** Polls completed. The first one is the baseline. */
  polls: number;
  /** Which poll last read the whole collection (deletions are found there). */
  lastFullPoll: number;
  /** id → version (updatedAt) last seen. */
  seen: Map<string, string>;
}

interface StateFile {
  version: number;
  family: string;
  scope: string | null;
  mark: string | null;
  latest: string | null;
  polls: number;
  lastFullPoll: number;
  seen: Record<string, string>;
}

export function newState(family: FamilyName, scope: string | null): WatchState {
  return { family, scope, mark: null, latest: null, polls: 0, lastFullPoll: 0, seen: new Map() };
}

export function serializeState(state: WatchState): string {
  const file: StateFile = {
    version: STATE_VERSION,
    family: state.family,
    scope: state.scope,
    mark: state.mark,
    latest: state.latest,
    polls: state.polls,
    lastFullPoll: state.lastFullPoll,
    seen: Object.fromEntries(state.seen),
  };
  return `${JSON.stringify(file)}\n`;
}

const HINT = 'delete it, or pass another --state-file, to start again from a new baseline';

function invalid(path: string, why: string): UsageError {
  return new UsageError(`state file ${path} is not a usable watch state: ${why}`, { hint: HINT });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
// An ISO 8601 date-time with a zone, as the service writes updatedAt: Date.parse alone takes "1" (the
// year 2001), which then makes every poll fail with 422.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const isTimestampOrNull = (value: unknown): value is string | null =>
  value === null || (typeof value === 'string' && ISO_TIMESTAMP.test(value) && Number.isFinite(Date.parse(value)));

/** Parse and check a state file's text; `expected` is the watch it must belong to. */
export function parseState(text: string, path: string, expected: { family: FamilyName; scope: string | null }): WatchState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid(path, 'it is not valid JSON (truncated or edited?)');
  }
  if (!isObject(raw)) throw invalid(path, 'it is not a JSON object');
  if (raw.version !== STATE_VERSION) {
    throw invalid(path, `version ${JSON.stringify(raw.version)} is not supported (this appraisal reads version ${STATE_VERSION})`);
  }
  if (typeof raw.family !== 'string' || !(raw.scope === null || typeof raw.scope === 'string')) {
    throw invalid(path, 'family or scope is missing');
  }
  if (raw.family !== expected.family || raw.scope !== expected.scope) {
    const theirs = `${raw.family}${raw.scope ? ` (${raw.scope})` : ''}`;
    const ours = `${expected.family}${expected.scope ? ` (${expected.scope})` : ''}`;
    throw new UsageError(`state file ${path} belongs to a watch of ${theirs}, not ${ours}`, {
      hint: 'use one state file per watched collection',
    });
  }
  if (!isTimestampOrNull(raw.mark) || !isTimestampOrNull(raw.latest)) {
    throw invalid(path, `mark or latest is not an ISO 8601 timestamp with a zone (mark ${JSON.stringify(raw.mark)?.slice(0, 40)})`);
  }
  if (!isCount(raw.polls) || !isCount(raw.lastFullPoll) || raw.lastFullPoll > raw.polls) throw invalid(path, 'poll counters are wrong');
  if (!isObject(raw.seen)) throw invalid(path, '"seen" is not an object');
  const seen = new Map<string, string>();
  for (const [id, version] of Object.entries(raw.seen)) {
    if (typeof version !== 'string' || version === '' || id === '') throw invalid(path, `the version of ${JSON.stringify(id.slice(0, 40))} is not a non-empty string`);
    seen.set(id, version);
  }
  return {
    family: expected.family,
    scope: expected.scope,
    mark: raw.mark,
    latest: raw.latest,
    polls: raw.polls,
    lastFullPoll: raw.lastFullPoll,
    seen,
  };
}

/** The saved state, or undefined when the file does not exist yet. */
export async function loadState(path: string, expected: { family: FamilyName; scope: string | null }): Promise<WatchState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LocalEnvironmentError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  return parseState(text, path, expected);
}

/** Replace the state file as a whole (see atomic-file.ts), reporting failures as the user's to fix. */
export async function writeStateFile(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text, { mode: 0o600 });
  } catch (error) {
    throw new LocalEnvironmentError(`cannot write state file ${path}: ${(error as Error).message}`);
  }
}

export interface StateStore {
  readonly path: string;
  save(state: WatchState): Promise<void>;
}

export function fileStateStore(path: string): StateStore {
  return { path, save: (state) => writeStateFile(path, serializeState(state)) };
}
