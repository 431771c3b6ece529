// Random answers from a service: a local HTTP server (loopback http, where a key may go) answers
// every request with what the property generated — random JSON, random collection envelopes, huge
// numbers, deep nesting, invalid UTF-8, the wrong content-type, any status, a body cut short —
// and `props list`, `props get`, `files download` and `api GET` run against it. Whatever arrives,
// the CLI exits with a documented code, no stack trace, one `error:` line (+ `hint:`).
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isolatedEnv } from '../../helpers/env.js';
import { entriesOf, tempDir } from '../../helpers/temp.js';
import { exitProblems } from '../../helpers/exit-shape.js';
import type { CommandRunner } from './runner.js';
import { randomRecord } from './in-process.js';

export interface Answer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
  /** Fill `pagination.page` with the page asked for (so a random envelope can run its course). */
  echoPage: boolean;
  /** Send the headers and part of the body, then drop the connection. */
  cutShort: boolean;
}

export interface ResponseFuzzFixture {
  baseUrl: string;
  env: Record<string, string | undefined>;
  cwd: string;
  answer: Answer;
  /** How often each exit code came up (FUZZ_STATS=1 prints it). */
  exitCodes: Map<number | null, number>;
  /** Runs each case (spawned or in process). */
  runner: CommandRunner;
  stop(): Promise<void>;
}

const KEY = 'apk_FuzzResp_F0zzR3sp0nsesF0zzR3sp0nsesF0zzR3sp';

function send(res: ServerResponse, answer: Answer, page: number): void {
  let body = answer.body;
  if (answer.echoPage) body = Buffer.from(body.toString('latin1').replace(/"page":"ECHO"/g, `"page":${page}`), 'latin1');
  const headers: Record<string, string | number> = { 'content-length': body.length };
  if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
  if (answer.status >= 300 && answer.status < 400) headers.location = 'http://127.0.0.1:1/elsewhere';
  res.writeHead(answer.status, headers);
  if (answer.cutShort && body.length > 1) {
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    setTimeout(() => res.socket?.destroy(), 5);
    return;
  }
  res.end(answer.status === 204 || answer.status === 304 ? undefined : body);
}

export async function startResponseFuzzFixture(runner: CommandRunner): Promise<ResponseFuzzFixture> {
  const fixture = {
    runner,
    answer: { status: 200, contentType: 'application/json', body: Buffer.from('{}'), echoPage: false, cutShort: false },
    exitCodes: new Map(),
  } as ResponseFuzzFixture;
  const server: Server = createServer((req, res) => {
    req.resume();
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
    send(res, fixture.answer, Number.isFinite(page) ? page : 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fixture.baseUrl = `http://127.0.0.1:${port}`;
  fixture.cwd = tempDir('appraisal-fuzz-responses-');
  fixture.env = {
    ...isolatedEnv({ APPRAISAL_BASE_URL: fixture.baseUrl, APPRAISAL_API_KEY: KEY }),
    TMPDIR: tempDir('appraisal-fuzz-responses-tmp-'),
  };
  fixture.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fixture;
}

const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '0.0000000000000000000001',
  '1E+308',
  '-0',
  '9007199254740993',
);

/** A collection envelope with random parts; "ECHO" pages become the page asked for. */
const envelope = fc
  .record({
    items: fc.oneof(
      fc.array(randomRecord, { maxLength: 5 }),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    page: fc.oneof(fc.constant('"ECHO"'), fc.integer({ min: -2, max: 5 }).map(String), hugeNumber, fc.constant('"1"')),
    limit: fc.oneof(fc.integer({ min: 0, max: 10 }).map(String), hugeNumber),
    total: fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), hugeNumber, fc.constant('null')),
    pages: fc.oneof(fc.integer({ min: 0, max: 4 }).map(String), hugeNumber),
    extra: fc.jsonValue({ maxDepth: 2 }),
  })
  .map(
    ({ items, page, limit, total, pages, extra }) =>
      `{"items":${JSON.stringify(items)},"pagination":{"page":${page},"limit":${limit},"total":${total},"pages":${pages}},"extra":${JSON.stringify(extra)}}`,
  );

const deep = fc.tuple(fc.integer({ min: 900, max: 6000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : '}';
  return `{"id":"deep","items":[],"nested":${open.repeat(depth)}1${close.repeat(depth)}}`;
});

const bodyArb = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  { weight: 4, arbitrary: envelope.map((text) => Buffer.from(text)) },
  { weight: 2, arbitrary: randomRecord.map((r) => Buffer.from(JSON.stringify(r))) },
  { weight: 1, arbitrary: randomRecord.map((r) => Buffer.from(JSON.stringify({ success: true, data: r }))) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify({ success: false, error: v }))) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify({ error: v }))) },
  {
    weight: 1,
    arbitrary: hugeNumber.map((n) =>
      Buffer.from(`{"id":"n","items":[{"id":"a","n":${n}}],"pagination":{"page":1,"limit":${n},"total":1,"pages":1}}`),
    ),
  },
  { weight: 1, arbitrary: deep.map((text) => Buffer.from(text)) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ minLength: 1, maxLength: 40 })
      .map((bytes) => Buffer.concat([Buffer.from('{"id":"'), Buffer.from(bytes), Buffer.from('","items":[]}')])),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', ' ', '<html><body>502 Bad Gateway</body></html>', 'null', '"a string"', '[]', '{}')
      .map((t) => Buffer.from(t)),
  },
);

export const answerArb: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(
    { weight: 6, arbitrary: fc.constant(200) },
    { weight: 1, arbitrary: fc.constantFrom(201, 204, 206, 301, 302, 304, 400, 401, 403, 404, 409, 410, 418, 422, 429, 500, 502, 503) },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) },
  ),
  contentType: fc.option(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/html',
      'text/plain',
      'application/octet-stream',
      'application/problem+json',
      'garbage/;;',
    ),
    { nil: undefined },
  ),
  body: bodyArb,
  echoPage: fc.boolean(),
  cutShort: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
});

const ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

export const commandArb = fc.oneof(
  fc.constantFrom('json', 'ndjson', 'csv', 'table').map((format) => ['props', 'list', '-o', format, '--page-size', '5']),
  fc.constantFrom('json', 'table', 'csv').map((format) => ['props', 'get', ID, '-o', format]),
  fc.constant(['props', 'list', '--out', 'OUT', '-o', 'csv']),
  fc.constant(['files', 'download', ID, '--out', 'OUT']),
  fc.constant(['api', 'GET', '/api/properties']),
  fc.constant(['ref', 'enums']),
  fc.constant(['auth', 'status']),
);

export function responsesProperty(fixture: ResponseFuzzFixture) {
  return fc.asyncProperty(answerArb, commandArb, fc.boolean(), async (answer, command, verbose) => {
    fixture.answer = answer;
    const dir = tempDir('appraisal-fuzz-out-');
    const args = command.map((arg) => (arg === 'OUT' ? `${dir}/out.file` : arg));
    const result = await fixture.runner([...args, '--retries', '0', '--timeout', '5', ...(verbose ? ['-v'] : [])], {
      env: fixture.env,
      cwd: fixture.cwd,
    });
    fixture.exitCodes.set(result.code, (fixture.exitCodes.get(result.code) ?? 0) + 1);
    const problems = exitProblems(result);
    // A failed run leaves nothing at --out.
    if (result.code !== 0 && entriesOf(dir).length > 0) problems.push(`left ${entriesOf(dir).join(', ')} behind after a failure`);
    rmSync(dir, { recursive: true, force: true });
    if (problems.length > 0) {
      const shown =
        answer.body.length > 600
          ? `${answer.body.subarray(0, 600).toString('latin1')}… (${answer.body.length} bytes)`
          : answer.body.toString('latin1');
      throw new Error(
        `appraisal ${args.join(' ')} against status ${answer.status}, content-type ${answer.contentType}, echo ${answer.echoPage}, cut ${answer.cutShort}, body ${JSON.stringify(shown)}\n→ exit ${result.code}: ${problems.join('; ')}\nstderr:\n${result.stderr.slice(0, 3000)}`,
      );
    }
    return true;
  });
}
