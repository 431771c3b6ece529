// What a watch remembers between polls and across restarts: the version seen per id, the high-water
// mark, and the poll count. Kept on disk (--state-file) as one small JSON document, replaced
// atomically (temp file, fsync, rename) so a crash leaves the old state or the new, never half.
// It is read through core/owned-file.ts (a regular file of ours, no link followed, no FIFO waited
// on), and one watch at a time holds it: the run lock `.NAME.lock` beside it (issue 26 §15).
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { holdRunLock } from '../../core/file-lock.js';
import { readOwned, UnsafeFileError } from '../../core/owned-file.js';
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
    // Nothing seen (an empty collection, or every record deleted): nothing to be incremental about,
    // so no mark either; the next run starts with a full poll. See the check in stateFileSchema.
    mark: state.seen.size > 0 ? state.mark : null,
    latest: state.seen.size > 0 ? state.latest : null,
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

// An ISO 8601 date-time with a zone, as the service writes updatedAt: Date.parse alone takes "1" (the
// year 2001), which then makes every poll fail with 422.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const timestamp = z.nullable(z.string().check(z.refine((value) => ISO_TIMESTAMP.test(value) && Number.isFinite(Date.parse(value)))));
const count = z.int().check(z.minimum(0));
const nonEmpty = z.string().check(z.minLength(1));

/**
 * The file's whole shape, checked before anything in it is used: every field present with its type,
 * no other field (a hand-edited or foreign file is refused, not half-read), and the fields
 * consistent with one another as the poller writes them (poller.ts).
 */
const stateFileSchema = z
  .strictObject({
    version: z.literal(STATE_VERSION),
    family: nonEmpty,
    scope: z.nullable(nonEmpty),
    mark: timestamp,
    latest: timestamp,
    polls: count,
    lastFullPoll: count,
    seen: z.record(nonEmpty, nonEmpty),
  })
  .check(
    z.refine((file) => file.lastFullPoll <= file.polls, { message: 'is after polls (the poll counters disagree)', path: ['lastFullPoll'] }),
    // serializeState writes no mark or latest beside an empty "seen", so an empty "seen" beside
    // them is a truncated or edited file: read as it is, every record would be reported again as
    // created.
    z.refine((file) => Object.keys(file.seen).length > 0 || (file.mark === null && file.latest === null), {
      message: 'is empty while mark/latest say records were seen (truncated or edited?)',
      path: ['seen'],
    }),
  );

/** What each field must hold, for the message (zod/mini carries no message texts). */
const EXPECTED: Readonly<Record<string, string>> = {
  family: 'a non-empty string',
  scope: 'null or a non-empty string',
  mark: 'null or an ISO 8601 timestamp with a zone',
  latest: 'null or an ISO 8601 timestamp with a zone',
  polls: 'a whole number, 0 or more',
  lastFullPoll: 'a whole number, 0 or more',
  seen: 'an object of id → version',
};

function shown(value: unknown): string {
  return value === undefined ? 'it is missing' : `got ${(JSON.stringify(value) ?? typeof value).slice(0, 40)}`;
}

/** The first thing wrong, in words: which field, what it must hold, what it holds. */
function describeIssue(issue: z.core.$ZodIssue, file: Record<string, unknown>): string {
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}`;
  const [field, id] = issue.path.map(String);
  // The consistency checks word their own message; a timestamp's check leaves it to EXPECTED.
  if (issue.code === 'custom' && field !== 'mark' && field !== 'latest') return `${field} ${issue.message}`;
  if (field === 'seen' && id !== undefined) {
    const name = JSON.stringify(id.slice(0, 40));
    return id === ''
      ? 'seen holds an empty id'
      : `the version of ${name} in seen must be a non-empty string (${shown((file.seen as Record<string, unknown>)[id])})`;
  }
  return `${field} must be ${EXPECTED[field ?? ''] ?? 'something else'} (${shown(file[field ?? ''])})`;
}

/** Parse and check a state file's text; `expected` is the watch it must belong to. */
export function parseState(text: string, path: string, expected: { family: FamilyName; scope: string | null }): WatchState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid(path, 'it is not valid JSON (truncated or edited?)');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(path, 'it is not a JSON object');
  const object = raw as Record<string, unknown>;
  if (object.version !== STATE_VERSION) {
    throw invalid(path, `version ${JSON.stringify(object.version)} is not supported (this appraisal reads version ${STATE_VERSION})`);
  }
  // Whose state it is comes first: "another watch's file" is the more useful message.
  if (typeof object.family === 'string' && (object.scope === null || typeof object.scope === 'string')) {
    if (object.family !== expected.family || object.scope !== expected.scope) {
      const theirs = `${object.family.slice(0, 40)}${object.scope ? ` (${object.scope.slice(0, 60)})` : ''}`;
      const ours = `${expected.family}${expected.scope ? ` (${expected.scope})` : ''}`;
      throw new UsageError(`state file ${path} belongs to a watch of ${theirs}, not ${ours}`, {
        hint: 'use one state file per watched collection',
      });
    }
  }
  const parsed = stateFileSchema.safeParse(raw);
  if (!parsed.success) throw invalid(path, describeIssue(parsed.error.issues[0]!, object));
  const file = parsed.data;
  return {
    family: expected.family,
    scope: expected.scope,
    mark: file.mark,
    latest: file.latest,
    polls: file.polls,
    lastFullPoll: file.lastFullPoll,
    seen: new Map(Object.entries(file.seen)),
  };
}

/** Far more than the state of a million records. */
const STATE_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Hold the run lock beside the state file until the returned function is called. Another live watch
 * holding it is exit 2 at once, as for `--out`; a killed one's lock is taken over.
 */
export function lockStateFile(path: string): Promise<() => Promise<void>> {
  return holdRunLock(join(dirname(path), `.${basename(path)}.lock`), {
    target: `state file ${path}`,
    busy: `state file ${path} is in use by another appraisal watch`,
    meanwhile: 'one watch per state file: wait for it to finish',
  });
}

/** The saved state, or undefined when the file does not exist yet. */
export async function loadState(path: string, expected: { family: FamilyName; scope: string | null }): Promise<WatchState | undefined> {
  let text: string | undefined;
  try {
    text = await readOwned(path, STATE_MAX_BYTES, { refuseLonger: true });
    if (text === undefined) return undefined;
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  return parseState(text, path, expected);
}

/** Replace the state file as a whole (see atomic-file.ts), reporting failures as the user's to fix. */
export async function writeStateFile(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text, { mode: 0o600 });
  } catch (error) {
    // In words: Node's text names the temp file beside PATH (`open '….props.state.1a2b.tmp'`).
    throw new LocalEnvironmentError(`cannot write state file ${path}: ${fileErrorWords(error)}`);
  }
}

export interface StateStore {
  readonly path: string;
  save(state: WatchState): Promise<void>;
}

export function fileStateStore(path: string): StateStore {
  return { path, save: (state) => writeStateFile(path, serializeState(state)) };
}
