// `appraisal watch` against the mock, in process: changes made between polls come out as exactly
// those events, --exec failures hold the state, 429 bursts are ridden out, Ctrl-C stops after saving.
// A watch process killed with SIGKILL and restarted is signals.test.ts's; Ctrl-C on a terminal while
// --exec runs is interrupt.test.ts's.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, start } from '../helpers/run.js';
import { waitFor } from '../helpers/wait.js';
import { tempDir } from '../helpers/temp.js';
import { kinds, parseEvents, stateOf, useWatchMock } from './watch-support.js';

const watching = useWatchMock();
const { call, createProperty, updateProperty, deleteProperty, someExistingIds } = watching;
const dir = () => tempDir('appraisal-watch-');

function watch(args: string[], options: { cwd?: string; extraEnv?: Record<string, string> } = {}) {
  return run(['watch', ...args], { env: { ...watching.env(), ...options.extraEnv }, cwd: options.cwd });
}

/** Wait for a condition (the shared helper, with this file's argument order). */
const until = (what: string, condition: () => boolean, timeoutMs?: number) => waitFor(condition, what, timeoutMs);

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
    const running = start(['watch', 'props', '--interval', '1s', '--state-file', state], { env: watching.env() });
    await until('the baseline', () => (stateOf(state)?.polls ?? 0) >= 1);
    running.interrupt();
    const { code } = await running.result;
    expect(code).toBe(130);
    expect(stateOf(state)!.polls).toBeGreaterThanOrEqual(1);
    expect(running.stderr()).not.toMatch(/\n\s+at /);
  });

  it('on a terminal, the status line is erased before an event is printed (stdout and stderr share the screen)', async () => {
    const state = join(dir(), 'props.state');
    const running = start(['watch', 'props', '--interval', '1s', '--state-file', state], { env: watching.env(), tty: true });
    // What stderr showed at the moment each stdout chunk arrived: the part after its last erase.
    const shownWithEvent: string[] = [];
    running.stdoutStream.on('data', () => shownWithEvent.push(running.stderr().split('\r\x1b[2K').at(-1)!));
    await until('the status line', () => running.stderr().includes('watching properties ·'));
    // A name with a right-to-left override and a C1 control: on a terminal the event spells them as
    // JSON escapes (the same value), never raw.
    const made = await call('POST', '/api/properties', {
      name: 'Pier\u202egnp.exe \u009b2J',
      propertyType: 'office',
      address: { line1: '1 Pier Rd', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
    });
    const created = (made.body?.data?.id ?? made.body?.id)!;
    await until('the event', () => running.stdout().includes(created));
    running.interrupt();
    expect((await running.result).code).toBe(130);
    expect(shownWithEvent.length).toBeGreaterThan(0);
    expect(shownWithEvent.filter((text) => text.includes('watching properties ·'))).toEqual([]);
    expect(running.stdout()).toContain('Pier\\u202egnp.exe \\u009b2J');
    expect(running.stdout()).not.toMatch(/[\u009b\u202e]/u);
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
