// `appraisal sync --to postgres://…` over TLS, as libpq (psql) reads the same URL: a private cluster
// with TLS on, its certificate signed by a throw-away CA, and a role it accepts over TLS alone (as a
// managed server that forces TLS does). A bare URL connects (sslmode prefer, libpq's default);
// verify-full checks the chain against sslrootcert (URL, PGSSLROOTCERT or ~/.postgresql/root.crt)
// and refuses an unknown CA in one line; require encrypts without checking; disable is refused by
// that role's server; a bad sslmode, client certificates and a missing password each get one line;
// the PG* variables alone (`--to postgres://`) are a whole target. pg-connection-string's multi-line
// SECURITY WARNING for some modes is never emitted (it warns once per process: this file has a
// process of its own, vitest.config.ts, so the check sees every run's warnings).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { openPostgres } from '../../src/commands/sync/postgres.js';
import { generateCertificate } from '../../src/mock/tls-certificate.js';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let db: PostgresCluster;
let scratch: string;
let caFile: string;
let env: Record<string, string | undefined>;
let warnings: MockInstance<typeof process.emitWarning>;

const ROLE = 'tls_only';
const PASSWORD = 'tls-pw-4711';
const RECORDS = 5;
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1', ...extra }, cwd: scratch });
const target = (query = '', password: string | null = PASSWORD) =>
  `postgres://${ROLE}${password === null ? '' : `:${password}`}@127.0.0.1:${db.port}/postgres${query}`;

beforeAll(async () => {
  warnings = vi.spyOn(process, 'emitWarning');
  const certificate = await generateCertificate();
  scratch = tempDir('appraisal-sync-tls-');
  caFile = join(scratch, 'ca.pem');
  writeFileSync(caFile, certificate.caPem);
  [mock, db] = await Promise.all([
    startMock({ records: RECORDS, http: true }),
    startPostgres({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem, onlyUser: ROLE } }),
  ]);
  db.psql(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}'; GRANT CREATE ON DATABASE postgres TO ${ROLE}`);
  env = { ...mock.env, ...isolatedEnv() };
}, 90_000);
afterAll(async () => {
  warnings?.mockRestore();
  await mock?.stop();
  await db?.stop();
});

/** One line of error and its hint, no stack, no password. */
function refusedInOneLine(result: Awaited<ReturnType<typeof cli>>): void {
  expect(exitProblems(result)).toEqual([]);
  expect(result.stderr).not.toContain(PASSWORD);
}

describe('sync into PostgreSQL over TLS', () => {
  it('connects with a bare URL to a server that takes TLS alone (sslmode prefer, as psql)', async () => {
    const result = await cli(['sync', 'props', '--to', target(), '--schema', 'bare']);
    expect(result.code, result.stderr).toBe(0);
    expect(db.psql('SELECT count(*) FROM bare.properties')).toBe(String(RECORDS));
    // The role is refused without TLS: the same URL with sslmode=disable says so, in one line.
    const plain = await cli(['sync', 'props', '--to', target('?sslmode=disable'), '--schema', 'bare']);
    expect(plain.code, plain.stderr).toBe(2);
    refusedInOneLine(plain);
    expect(plain.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+ refused the connection as user tls_only: .*no encryption/m);
  });

  it('verify-full checks the chain against sslrootcert, from the URL, PGSSLROOTCERT or ~/.postgresql/root.crt', async () => {
    const viaUrl = await cli([
      'sync',
      'props',
      '--to',
      target(`?sslmode=verify-full&sslrootcert=${encodeURIComponent(caFile)}`),
      '--schema',
      'checked',
    ]);
    expect(viaUrl.code, viaUrl.stderr).toBe(0);
    const viaEnv = await cli(['sync', 'props', '--to', target(), '--schema', 'checked'], {
      PGSSLMODE: 'verify-full',
      PGSSLROOTCERT: caFile,
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    const home = tempDir('appraisal-pg-home-');
    mkdirSync(join(home, '.postgresql'));
    writeFileSync(join(home, '.postgresql', 'root.crt'), readFileSync(caFile, 'utf8'));
    const viaHome = await cli(['sync', 'props', '--to', target('?sslmode=verify-ca'), '--schema', 'checked'], { HOME: home });
    expect(viaHome.code, viaHome.stderr).toBe(0);
    expect(db.psql('SELECT count(*) FROM checked.properties')).toBe(String(RECORDS));
  });

  it('refuses a certificate it cannot check in one line naming sslrootcert and sslmode=require; require encrypts without checking', async () => {
    const unknown = await cli(['sync', 'props', '--to', target('?sslmode=verify-full'), '--schema', 'unchecked']);
    expect(unknown.code, unknown.stderr).toBe(2);
    refusedInOneLine(unknown);
    expect(unknown.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+: its TLS certificate was not accepted \(.*certificate.*\)$/m);
    expect(unknown.stderr).toMatch(/^hint: .*sslrootcert=FILE.*sslmode=require/m);
    expect(db.psql(`SELECT count(*) FROM pg_namespace WHERE nspname = 'unchecked'`)).toBe('0');
    const required = await cli(['sync', 'props', '--to', target('?sslmode=require'), '--schema', 'unchecked']);
    expect(required.code, required.stderr).toBe(0);
    expect(db.psql('SELECT count(*) FROM unchecked.properties')).toBe(String(RECORDS));
  });

  it('says in one line what is wrong with a bad sslmode, a CA file, client certificates or a missing password', async () => {
    const mode = await cli(['sync', 'props', '--to', target('?sslmode=always')]);
    expect(mode.code).toBe(2);
    refusedInOneLine(mode);
    expect(mode.stderr).toMatch(/^error: --to: sslmode "always" is not one of disable, allow, prefer, require, verify-ca, verify-full$/m);
    const missing = await cli(['sync', 'props', '--to', target('?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem')]);
    expect(missing.code).toBe(2);
    refusedInOneLine(missing);
    expect(missing.stderr).toMatch(/^error: cannot read the CA file \/nonexistent\/ca\.pem: no such file or directory$/m);
    expect(missing.stderr).toMatch(/^hint: .*sslrootcert=FILE.*PGSSLROOTCERT/m);
    const clientCertificate = await cli(['sync', 'props', '--to', target(`?sslcert=${encodeURIComponent(caFile)}`)]);
    expect(clientCertificate.code).toBe(2);
    refusedInOneLine(clientCertificate);
    expect(clientCertificate.stderr).toMatch(/^error: --to: client certificates .* are not supported$/m);
    const noPassword = await cli(['sync', 'props', '--to', target('', null)]);
    expect(noPassword.code).toBe(2);
    refusedInOneLine(noPassword);
    expect(noPassword.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+ asks for a password for user tls_only and none was given$/m);
  });

  it("reads a password only from the environment it is handed, never this process's own", async () => {
    process.env.PGPASSWORD = PASSWORD;
    try {
      await expect(openPostgres(target('', null), { HOME: tempDir('appraisal-pg-nohome-') })).rejects.toThrow(
        /asks for a password for user tls_only and none was given/,
      );
    } finally {
      delete process.env.PGPASSWORD;
    }
    const opened = await openPostgres(target('', null), { PGPASSWORD: PASSWORD });
    await opened.close();
  });

  it('over a Unix socket uses no TLS, whatever sslmode says (as libpq)', async () => {
    const socket = `postgres:///postgres?host=${encodeURIComponent(db.socketDir)}&port=${db.port}&user=${db.user}`;
    const opened = await openPostgres(socket, { PGSSLMODE: 'require', HOME: tempDir('appraisal-pg-nohome-') });
    expect(await opened.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await opened.close();
  });

  it('takes the whole target from the PG* variables when --to is postgres:// alone', async () => {
    const result = await cli(['sync', 'props', '--to', 'postgres://', '--schema', 'from_env'], {
      PGHOST: '127.0.0.1',
      PGPORT: String(db.port),
      PGUSER: ROLE,
      PGPASSWORD: PASSWORD,
      PGDATABASE: 'postgres',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^properties: 5 new/m);
    expect(db.psql('SELECT count(*) FROM from_env.properties')).toBe(String(RECORDS));
  });

  it('emitted no warning of a library through all of the above (sslmode require, verify-ca, verify-full among them)', () => {
    expect(warnings.mock.calls.map((call) => String(call[0]))).toEqual([]);
  });
});
