// `appraisal watch` against `appraisal mock`: changes made between polls come out as exactly those
// events, a restart from the state file neither repeats nor misses, --exec failures hold the state,
// 429 bursts are ridden out.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../helpers/spawn.js';
import { run } from '../helpers/run.js';
import { isolatedEnv } from '../helpers/env.js';
import { waitFor } from '../helpers/wait.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { processGone } from '../helpers/processes.js';
import { shellQuote, startOnPty } from '../hostile/terminal.js';

let mock: MockServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  mock = await startMock({ records: 5, seed: 7 });
  env = isolatedEnv(mock.env);
});

afterAll(async () => {
  await mock?.stop();
});

interface WatchEventLine {
  type: 'created' | 'updated' | 'deleted';
  family: string;
  id: string;
  record: Record<string, unknown> | null;
  observedAt: string;
}

/** A request straight to the mock with its admin key (changes made "behind the watcher's back"). */
interface Answer {
  status: number;
  body: { id?: string; data?: { id: string }; items?: Array<{ id: string }> } | undefined;
}

const call = async (method: string, path: string, body?: unknown): Promise<Answer> =>
  (await adminOf(mock).call(method, path, body)) as Answer;

let counter = 0;
async function createProperty(): Promise<string> {
  counter++;
  const res = await call('POST', '/api/properties', {
    name: `Watch test ${counter}`,
    propertyType: 'office',
    address: { line1: `${counter} Pier Rd`, city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
  });
  expect(res.status).toBe(201);
  return (res.body?.data?.id ?? res.body?.id)!;
}

async function updateProperty(id: string): Promise<void> {
  const res = await call('PATCH', `/api/properties/${id}`, { name: `Renamed ${++counter}` });
  expect(res.status).toBe(200);
}

async function deleteProperty(id: string): Promise<void> {
  const res = await call('DELETE', `/api/properties/${id}`);
  expect(res.status).toBe(204);
}

async function someExistingIds(n: number): Promise<string[]> {
  const res = await call('GET', `/api/properties?limit=${n}`);
  return res.body!.items!.map((r) => r.id);
}

const parseEvents = (stdout: string): WatchEventLine[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as WatchEventLine);
const kinds = (events: WatchEventLine[]) => events.map((e) => `${e.type} ${e.id}`).sort();
const dir = () => tempDir('appraisal-watch-');

function watch(args: string[], options: { cwd?: string; extraEnv?: Record<string, string> } = {}) {
  return run(['watch', ...args], { env: { ...env, ...options.extraEnv }, cwd: options.cwd });
}

/** A long-running watch whose stdout lines can be awaited (spawned: the tests stop it with a signal). */
function spawnWatch(args: string[]) {
  const running = startCli(['watch', ...args], { env });
  const exited = running.result.then(({ code, signal }) => ({ code, signal }));
  return { child: running.child, exited, stdout: running.stdout, stderr: running.stderr, events: () => parseEvents(running.stdout()) };
}

/** Wait for a condition (the shared helper, with this file's argument order). */
const until = (what: string, condition: () => boolean, timeoutMs?: number) => waitFor(condition, what, timeoutMs);

function stateOf(path: string): { polls: number; seen: Record<string, string> } | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8'));
}

describe('appraisal watch', () => {
  it('--once with a state file: a silent baseline, then exactly the creates, updates and deletes made between runs', async () => {
    const state = join(dir(), 'props.state');
    const first = await watch(['props', '--once', '--state-file', state, '--page-size', '2']);
    expect(first.stderr).toContain('recorded as the baseline');
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(Object.keys(stateOf(state)!.seen).length).toBeGreaterThanOrEqual(5);

    const [toUpdate, toDelete] = await someExistingIds(2);
    const created = await createProperty();
    await updateProperty(toUpdate!);
    await deleteProperty(toDelete!);
    const second = await watch(['props', '--once', '--state-file', state, '--page-size', '2']);
    expect(second.code).toBe(0);
    const events = parseEvents(second.stdout);
    expect(kinds(events)).toEqual([`created ${created}`, `deleted ${toDelete}`, `updated ${toUpdate}`].sort());
    const updated = events.find((e) => e.type === 'updated')!;
    expect(updated).toMatchObject({ family: 'props', record: { id: toUpdate, name: expect.stringMatching(/^Renamed/) } });
    expect(Date.parse(updated.observedAt)).not.toBeNaN();
    expect(events.find((e) => e.type === 'deleted')!.record).toBeNull();

    // Nothing changed since: nothing to say.
    const third = await watch(['props', '--once', '--state-file', state]);
    expect(third).toMatchObject({ code: 0, stdout: '' });
  });

  it('--emit-existing reports every record on the first poll, across pages', async () => {
    const result = await watch(['clients', '--once', '--emit-existing', '--page-size', '2']);
    expect(result.code).toBe(0);
    const events = parseEvents(result.stdout);
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.every((e) => e.type === 'created' && e.family === 'clients' && e.record?.id === e.id)).toBe(true);
  });

  it('long-running: emits changes as they happen; after a kill, a restart from the state file neither repeats nor misses', async () => {
    const state = join(dir(), 'props.state');
    const args = ['props', '--interval', '1s', '--full-every', '2', '--state-file', state, '--page-size', '2'];
    const run = spawnWatch(args);
    await until('the baseline', () => (stateOf(state)?.polls ?? 0) >= 1);
    const a = await createProperty();
    const [b] = await someExistingIds(1);
    await updateProperty(b!);
    await until('the first events', () => run.events().length >= 2);
    // The poll that wrote them saves the state as it ends: wait for a save after this point.
    const polls = stateOf(state)!.polls;
    await until('the state to hold them', () => stateOf(state)!.polls > polls);
    run.child.kill('SIGKILL');
    await run.exited;

    // While it is down:
    const c = await createProperty();
    await updateProperty(a);
    await deleteProperty(b!);
    const restarted = await watch([...args.filter((x) => x !== '--interval' && x !== '1s'), '--max-polls', '2', '--interval', '1s']);
    expect(restarted.code).toBe(0);
    const all = [...run.events(), ...parseEvents(restarted.stdout)];
    expect(kinds(all)).toEqual([`created ${a}`, `updated ${b}`, `created ${c}`, `updated ${a}`, `deleted ${b}`].sort());
  });

  it('--exec runs the command per event with the event on stdin; a failure stops without advancing past that event', async () => {
    const cwd = dir();
    const state = join(cwd, 'props.state');
    await watch(['props', '--once', '--state-file', state]);
    const x = await createProperty();
    const y = await createProperty();
    // Handles the first event, fails on the second.
    const failing = await watch(
      ['props', '--once', '--state-file', state, '--exec', 'cat >> events.log; [ "$(wc -l < events.log)" -lt 2 ]'],
      { cwd },
    );
    expect(failing.code).toBe(2);
    expect(failing.stderr).toMatch(/error: --exec command exited with code 1 on the created event for props /);
    expect(failing.stderr).toContain('hint: the state file was not advanced past this event');
    const handled = parseEvents(readFileSync(join(cwd, 'events.log'), 'utf8')).map((e) => e.id);
    expect([...handled].sort()).toEqual([x, y].sort());
    const [first, second] = handled;
    expect(parseEvents(failing.stdout).map((e) => e.id)).toEqual([first]);

    const fixed = await watch(
      ['props', '--once', '--state-file', state, '--exec', 'cat >> events.log; echo "handled $APPRAISAL_EVENT_ID" >&2'],
      { cwd },
    );
    expect(fixed.code).toBe(0);
    expect(parseEvents(fixed.stdout).map((e) => e.id)).toEqual([second]);
    expect(fixed.stderr).toContain(`handled ${second}`);
    expect(parseEvents(readFileSync(join(cwd, 'events.log'), 'utf8')).map((e) => e.id)).toEqual([first, second, second]);
  });

  it('rides out a burst of 429s: backs off as Retry-After asks, warns, and carries on', async () => {
    const state = join(dir(), 'props.state');
    await watch(['props', '--once', '--state-file', state]);
    const created = await createProperty();
    await queueFaults(3);
    const result = await watch(['props', '--state-file', state, '--interval', '1s', '--max-polls', '1', '--retries', '0']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: polling properties failed \(429[^)]*\); trying again in/);
    expect(parseEvents(result.stdout).map((e) => `${e.type} ${e.id}`)).toEqual([`created ${created}`]);
  });

  it('stops at once on 401 with exit 4', async () => {
    const result = await watch(['props', '--interval', '1s', '--emit-existing'], {
      extraEnv: { APPRAISAL_API_KEY: 'apk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
    });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
  });

  it('Ctrl-C stops cleanly after saving the state: exit 130', async () => {
    const state = join(dir(), 'props.state');
    const run = spawnWatch(['props', '--interval', '1s', '--state-file', state]);
    await until('the baseline', () => (stateOf(state)?.polls ?? 0) >= 1);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(130);
    expect(stateOf(state)!.polls).toBeGreaterThanOrEqual(1);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
  });

  it('Ctrl-C on a terminal while --exec runs: the command is interrupted and cleans up, the watch exits 130 before that event', async () => {
    const cwd = dir();
    const state = join(cwd, 'props.state');
    const pidFile = join(cwd, 'hook.pid');
    await watch(['props', '--once', '--state-file', state]);
    const created = await createProperty();
    // The hook runs in a process group of its own, so the terminal's Ctrl-C reaches only the watch;
    // the watch passes it on.
    const hook = `echo $$ > ${shellQuote(pidFile)}; trap 'echo "hook cleaned up" >&2; exit 130' INT; echo "hook started $APPRAISAL_EVENT_ID" >&2; while :; do sleep 1; done`;
    const session = startOnPty(['watch', 'props', '--interval', '1s', '--state-file', state, '--exec', hook], env);
    await session.waitFor(new RegExp(`hook started ${created}`));
    session.type('\x03');
    const result = await session.result;
    expect(result.code, result.screen).toBe(130);
    expect(result.screen).toContain('hook cleaned up');
    expect(result.screen).toMatch(/^error: interrupted$/m);
    expect(result.screen).not.toMatch(/\n\s+at /);
    expect(result.screen).not.toContain(`"id":"${created}"`);
    expect(processGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    // The event was not handled, so the state stays before it: the next run delivers it.
    const next = await watch(['props', '--once', '--state-file', state]);
    expect(parseEvents(next.stdout).map((e) => `${e.type} ${e.id}`)).toEqual([`created ${created}`]);
  });

  it.each([
    [['contacts'], /watching contacts needs --client ID/],
    [['contacts', '--client', 'nope'], /--client must be a UUID/],
    [['props', '--interval', '10ms'], /--interval must be between 1s and/],
    [['props', '--interval', 'soon'], /--interval must be a duration/],
    [['props', '--since', 'yesterday'], /--since must be an ISO 8601/],
    [['props', '--full-every', '0'], /--full-every must be a whole number of at least 1/],
    [['planets'], /value 'planets' is invalid for argument 'family'/],
    [['props', '--once'], /--once without --state-file can only record a baseline/],
  ])('refuses bad input before any request: watch %j', async (args, message) => {
    const result = await watch(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('a state file whose mark is in the future (planted, or written by a clock that ran ahead) is repaired: the change is reported', async () => {
    const state = join(dir(), 'props.state');
    // A baseline, then a poll that sets the mark.
    for (let poll = 0; poll < 2; poll++) expect((await watch(['props', '--once', '--state-file', state])).code).toBe(0);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as Record<string, unknown>;
    expect(saved.mark).not.toBeNull();
    writeFileSync(state, JSON.stringify({ ...saved, mark: '2099-01-01T00:00:00.000Z', latest: '2099-01-01T00:00:00.000Z' }));
    const [id] = await someExistingIds(1);
    await updateProperty(id!);

    const repaired = await watch(['props', '--once', '--state-file', state]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(kinds(parseEvents(repaired.stdout))).toEqual([`updated ${id}`]);
    expect(repaired.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      expect.stringMatching(/^warning: the watch state's mark 2099-01-01T00:00:00\.000Z is later than the service's clock \(now /),
    ]);
    const after = JSON.parse(readFileSync(state, 'utf8')) as { mark: string | null; latest: string };
    expect(Date.parse(after.latest)).toBeLessThan(Date.now() + 60_000);

    // From there on, polls go on as usual: no warning, the next change reported once.
    await updateProperty(id!);
    const next = await watch(['props', '--once', '--state-file', state]);
    expect(next.code, next.stderr).toBe(0);
    expect(kinds(parseEvents(next.stdout))).toEqual([`updated ${id}`]);
    expect(next.stderr).not.toContain('warning:');
  });

  it('refuses a corrupt state file or one of another collection with exit 2 and a clear message', async () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'bad.state'), '{"version":1,"fam');
    const corrupt = await watch(['props', '--once', '--state-file', 'bad.state'], { cwd });
    expect(corrupt.code).toBe(2);
    expect(corrupt.stderr).toMatch(/^error: state file .*bad\.state is not a usable watch state: it is not valid JSON/);
    expect(corrupt.stderr).toContain('hint: delete it');

    await watch(['props', '--once', '--state-file', 'props.state'], { cwd });
    const other = await watch(['clients', '--once', '--state-file', 'props.state'], { cwd });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/belongs to a watch of props, not clients/);
  });
});

/** Make the next `count` API requests answer 429 with Retry-After: 1. */
async function queueFaults(count: number): Promise<void> {
  const res = await call('POST', '/__mock/faults', { path: '/api/properties', method: 'GET', fault: 'status=429;retry-after=1', count });
  expect(res.status).toBeLessThan(300);
}
