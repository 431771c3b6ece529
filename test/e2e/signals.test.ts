// Signals other than Ctrl-C (issue 26 items 7 and 17), sent to the built binary in the middle of an
// export against the mock: SIGUSR1 must not open Node's inspector (another local user could run code
// inside the CLI and read the key), and SIGHUP (the terminal closed) and SIGQUIT clean up exactly as
// SIGINT does (interrupt.test.ts): exit 130, no temp file, no lock, only the resumable pair kept.
// SIGKILL (kill -9) gives the export no chance to clean up: resumed (issue 16 §1), it equals an
// uninterrupted export byte for byte, without fetching the finished pages again (the refusals to
// resume: export-resume.test.ts, in process); a long-running watch killed so and restarted from its
// state file neither repeats nor misses an event (the rest of watch: watch.test.ts, in process).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { entriesBesidePartial, entriesOf, tempDir } from '../helpers/temp.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run } from '../helpers/run.js';
import { startCli } from '../helpers/spawn.js';
import { mockAdmin, waitFor, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { kinds, parseEvents, stateOf, useWatchMock } from './watch-support.js';

let mock: MockServer;
let admin: MockAdmin;
let tmp: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // Every answer 200 ms late: a 60-page export, one page at a time, is still running when signalled.
  mock = await startMock({ records: 300, latencyMs: 200, seed: 7 });
  admin = mockAdmin(mock);
  tmp = tempDir('appraisal-signals-tmp-');
  env = { ...isolatedEnv(mock.env), TMPDIR: tmp };
});

afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

const highestPage = async (): Promise<number> =>
  Math.max(0, ...(await admin.requests(200)).filter((r) => r.path === '/api/properties').map((r) => Number(r.query.page) || 0));

/** Whether something accepts connections on 127.0.0.1:PORT. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('SIGUSR1', () => {
  it('opens the inspector of a plain Node process (the attack is real on this Node)', async () => {
    const script = "process.stdout.write('ready\\n'); setInterval(() => {}, 1000)";
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitFor(() => stdout.includes('ready'), 'the child to start');
      child.kill('SIGUSR1');
      await waitFor(() => /Debugger listening/.test(stderr), 'the inspector to open', 20_000);
    } finally {
      child.kill('SIGKILL');
    }
    expect(stderr).toMatch(/Debugger listening on ws:\/\/127\.0\.0\.1:9229/);
  });

  it('does not open the inspector of appraisal: the export goes on and ends normally', async () => {
    await admin.clearRequests();
    const dir = tempDir('appraisal-signals-usr1-');
    const running = startCli(['props', 'list', '--page-size', '20', '--concurrency', '1', '--out', join(dir, 'props.ndjson')], { env });
    await waitFor(async () => (await highestPage()) >= 2, 'the export to be under way');
    running.child.kill('SIGUSR1');
    const pageWhenSignalled = await highestPage();
    // Pages keep coming after the signal was handled: the process neither died nor stopped.
    await waitFor(async () => (await highestPage()) >= pageWhenSignalled + 2, 'the export to go on after SIGUSR1');
    expect(running.stderr()).not.toMatch(/Debugger listening/);
    expect(await listening(9229), 'nothing listens on the inspector port').toBe(false);
    const result = await running.result;
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/Debugger|inspector/i);
    expect(entriesOf(dir)).toEqual(['props.ndjson']);
  });
});

describe.each(['SIGHUP', 'SIGQUIT'] as const)('%s during an export', (signal) => {
  it('cleans up as Ctrl-C does: exit 130, no temp file, no lock, the resumable pair kept', async () => {
    await admin.clearRequests();
    const dir = tempDir('appraisal-signals-stop-');
    const running = startCli(['props', 'list', '--page-size', '5', '--concurrency', '1', '--out', join(dir, 'props.ndjson')], { env });
    await waitFor(async () => entriesOf(dir).length > 0 && (await highestPage()) >= 3, 'the export to be under way');
    running.child.kill(signal);
    const result = await running.result;
    expect(exitProblems(result, { interrupted: true }), result.stderr).toEqual([]);
    expect(result.signal, 'ended by its own clean-up, not by the signal').toBe(null);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/^error: interrupted$/m);
    expect(entriesOf(tmp), 'nothing left in TMPDIR').toEqual([]);
    expect(entriesBesidePartial(dir), 'no lock, no temp file').toEqual([]);
    expect(entriesOf(dir)).toEqual(['.props.ndjson.checkpoint', '.props.ndjson.partial']);
  });
});

describe('SIGKILL during an export', () => {
  const RECORDS = 1500;
  const PAGE = ['--page-size', '30', '--concurrency', '1'];
  let resumeMock: MockServer;
  let resumeAdmin: MockAdmin;
  let resumeEnv: Record<string, string | undefined>;
  beforeAll(async () => {
    resumeMock = await startMock({ records: RECORDS, seed: 5, latencyMs: 5 });
    resumeAdmin = mockAdmin(resumeMock);
    resumeEnv = { ...isolatedEnv(), ...resumeMock.env };
  });
  afterAll(async () => {
    await resumeAdmin?.close();
    await resumeMock?.stop();
  });

  const cli = (args: string[]) => run(args, { env: { ...resumeEnv, APPRAISAL_RETRY_BASE_MS: '10' } });
  const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  const freshDir = () => mkdtempSync(join(tempDir('appraisal-signals-resume-'), 'out-'));
  const pagesRequested = async (): Promise<number[]> =>
    (await resumeAdmin.requests()).filter((r) => r.method === 'GET' && r.path === '/api/properties').map((r) => Number(r.query.page));
  /** The checkpoint's complete entries (the last element is '' after a complete line, or a line still being written: both skipped). */
  function checkpointEntries(path: string): Array<{ page: number; records: number; bytes: number }> {
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .slice(1, -1)
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { page: number; records: number; bytes: number }];
        } catch {
          return [];
        }
      });
  }

  it.each(['json'])(
    'a %s export killed with SIGKILL and resumed equals an uninterrupted one, fetching no finished page again but the last, to check it still lines up',
    async (format) => {
      await resumeAdmin.reset();
      const reference = join(freshDir(), `props.${format}`);
      const whole = await cli(['props', 'list', '--out', reference, ...PAGE]);
      expect(whole.code).toBe(0);

      const dir = freshDir();
      const out = join(dir, `props.${format}`);
      const checkpoint = join(dir, `.props.${format}.checkpoint`);
      const partial = join(dir, `.props.${format}.partial`);
      // Page 40 never answers: the export cannot finish before it is killed.
      await resumeAdmin.queueFaults([{ path: '/api/properties', query: { page: '40' }, fault: 'hang' }]);
      await resumeAdmin.clearRequests();
      const running = startCli(['props', 'list', '--out', out, ...PAGE], { env: { ...resumeEnv } });
      await waitFor(
        async () => checkpointEntries(checkpoint).length > 0 && (await pagesRequested()).includes(40),
        'a checkpoint and the request for page 40',
      );
      running.child.kill('SIGKILL');
      expect((await running.result).signal).toBe('SIGKILL');
      await resumeAdmin.clearFaults();

      expect(existsSync(out)).toBe(false);
      const last = checkpointEntries(checkpoint).at(-1)!;
      expect(last.page).toBeGreaterThanOrEqual(1);
      expect(last.page).toBeLessThan(40);
      // Whatever the killed run wrote after its checkpoint, and more, is cut off by the resume.
      appendFileSync(partial, 'bytes the checkpoint does not vouch for\n');

      await resumeAdmin.clearRequests();
      const resumed = await cli(['props', 'list', '--out', out, ...PAGE, '--resume']);
      expect(resumed.stderr).toContain(`Resuming the export to ${out} after page ${last.page} of 50`);
      expect(resumed.code).toBe(0);
      expect(sha256(out)).toBe(sha256(reference));
      // The pages after the checkpoint, and the last finished one once more: it must still hold only
      // what the partial holds, or the pages would not line up (collection-integrity.ts).
      const pages = await pagesRequested();
      expect([...pages].sort((a, b) => a - b)).toEqual(Array.from({ length: 51 - last.page }, (_, i) => last.page + i));
      expect(readdirSync(dir)).toEqual([`props.${format}`]);
    },
  );
});

describe('SIGKILL during a long-running watch', () => {
  const { env: watchEnv, createProperty, updateProperty, deleteProperty, someExistingIds } = useWatchMock();

  it('long-running: emits changes as they happen; after a kill, a restart from the state file neither repeats nor misses', async () => {
    const state = join(tempDir('appraisal-signals-watch-'), 'props.state');
    const args = ['props', '--interval', '1s', '--full-every', '2', '--state-file', state, '--page-size', '2'];
    const running = startCli(['watch', ...args], { env: watchEnv() });
    const events = () => parseEvents(running.stdout());
    await waitFor(() => (stateOf(state)?.polls ?? 0) >= 1, 'the baseline');
    const a = await createProperty();
    const [b] = await someExistingIds(1);
    await updateProperty(b!);
    await waitFor(() => events().length >= 2, 'the first events');
    // The poll that wrote them saves the state as it ends: wait for a save after this point.
    const polls = stateOf(state)!.polls;
    await waitFor(() => stateOf(state)!.polls > polls, 'the state to hold them');
    running.child.kill('SIGKILL');
    await running.result;

    // While it is down:
    const c = await createProperty();
    await updateProperty(a);
    await deleteProperty(b!);
    const restarted = await run(
      ['watch', ...args.filter((x) => x !== '--interval' && x !== '1s'), '--max-polls', '2', '--interval', '1s'],
      {
        env: watchEnv(),
      },
    );
    expect(restarted.code).toBe(0);
    const all = [...events(), ...parseEvents(restarted.stdout)];
    expect(kinds(all)).toEqual([`created ${a}`, `updated ${b}`, `created ${c}`, `updated ${a}`, `deleted ${b}`].sort());
  });
});
