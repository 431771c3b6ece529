// What `--to` refuses before anything is opened, and how it says so: one UsageError (exit 2) whose
// message and hint name what is wrong and never repeat a password (nor, for a URL, anything after
// its scheme but a parameter's name).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { connectionConfig } from '../../../../src/commands/sync/postgres-connection.js';
import { parseTarget, postgresHost } from '../../../../src/commands/sync/target.js';

/** The refusal of `raw` as `message hint`. */
function refusal(raw: string): string {
  try {
    parseTarget(raw, '/w', {});
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return `${(error as UsageError).message} | ${(error as UsageError).hint ?? ''}`;
  }
  throw new Error(`${raw} was accepted`);
}

const SUPPORTED = 'a postgres:// URL here takes host, port, dbname, user, password, sslmode, sslrootcert';

describe('a PostgreSQL URL’s query parameters', () => {
  it('refuses one libpq does not know, naming it and not the URL (a typo of sslmode would drop TLS)', () => {
    const typo = refusal('postgres://sync:hunter2@db.internal/ops?sslmod=require');
    expect(typo).toBe(`--to: the URL's parameter "sslmod" is not one libpq knows | ${SUPPORTED} (the PG* variables of each work too)`);
    expect(typo).not.toMatch(/hunter2|db\.internal|require/);
    expect(refusal('postgres://db/ops?sslmode=require&foo=bar')).toMatch(/^--to: the URL's parameter "foo" is not one libpq knows \|/);
    // libpq decodes a parameter's name as its value; so does the check.
    expect(refusal('postgres://db/ops?%73slmod=require')).toMatch(/"sslmod"/);
    // node-postgres' own `ssl=true` is no libpq parameter: psql refuses it too.
    expect(refusal('postgres://db/ops?ssl=true')).toMatch(/"ssl" is not one libpq knows/);
  });

  it('refuses one libpq knows and sync does not honour, rather than ignoring it', () => {
    for (const name of ['connect_timeout', 'application_name', 'options', 'hostaddr', 'target_session_attrs', 'service', 'passfile'])
      expect(refusal(`postgres://db/ops?${name}=x`)).toMatch(
        new RegExp(`^--to: the URL's parameter "${name}" is not supported by sync \\| ${SUPPORTED}`),
      );
    expect(refusal('postgres://db/ops?sslkey=/k.pem')).toMatch(
      /^--to: client certificates .* are not supported \| authenticate with a password/,
    );
    expect(refusal('postgres://db/ops?sslcert=/c.pem')).toMatch(/client certificates/);
  });

  it('takes the ones sync honours', () => {
    const url = 'postgres://db:5433/ops?host=db2&port=5434&dbname=reports&user=ro&password=pw&sslmode=verify-full&sslrootcert=/ca.pem';
    expect(parseTarget(url, '/w', {})).toMatchObject({ kind: 'postgres', shown: 'postgres at db2:5434', passwordInUrl: true });
    expect(parseTarget('postgres://', '/w', {})).toMatchObject({ kind: 'postgres' });
  });

  it('reads dbname= as libpq does (after the path, so it wins) and a PGPORT that is no port as an error', async () => {
    const env = { PGPASSWORD: 'x', HOME: '/nonexistent' };
    expect(await connectionConfig('postgres://u@h/ops?dbname=reports', env)).toMatchObject({ database: 'reports', port: 5432 });
    expect(await connectionConfig('postgres://u@h/ops', env)).toMatchObject({ database: 'ops' });
    await expect(connectionConfig('postgres://u@h/ops', { ...env, PGPORT: 'fivefour' })).rejects.toThrow(
      new UsageError('--to: PGPORT is not a number from 1 to 65535'),
    );
  });
});

describe('a PostgreSQL URL that cannot be read', () => {
  it('says the port is wrong, naming no host it was not given and never the password', () => {
    const port = refusal('postgres://sync:hunter2@127.0.0.1:notaport/ops');
    expect(port).toMatch(/^--to: the URL's port is not a number from 1 to 65535 \| write it postgres:\/\/USER@HOST:PORT\/DATABASE/);
    expect(port).not.toMatch(/localhost|5432|127\.0\.0\.1|notaport|hunter2/);
    expect(refusal('postgres://h:99999/ops')).toMatch(/port is not a number from 1 to 65535/);
    expect(refusal('postgres://h/ops?port=x')).toMatch(/^--to: the URL's port= is not a number/);
    // A password with an unencoded `/` ends the authority early: what is left looks like a port, and the hint says why.
    const slash = refusal('postgres://sync:pa/ss@db/ops');
    expect(slash).toMatch(/port is not a number.*percent-encoded \(%2F/);
    expect(slash).not.toContain('pa/ss');
    expect(refusal('postgres://h1:5432,h2:5433/ops')).toMatch(/^--to: a URL naming several hosts is not supported: name one \|/);
    expect(refusal('postgres:///ops?host=h1,h2')).toMatch(/^--to: a URL naming several hosts is not supported: name one \|/);
    expect(parseTarget('postgres://[::1]:5433/ops', '/w', {})).toMatchObject({ shown: 'postgres at [::1]:5433' });
    expect(parseTarget('postgres://h:/ops', '/w', {})).toMatchObject({ shown: 'postgres at h:5432' });
  });

  it('shows the host and port the connection takes: host= and port= over the authority, else PGHOST and PGPORT', () => {
    expect(postgresHost('postgres:///ops?host=/var/run/postgresql', { PGHOST: 'elsewhere' })).toBe('/var/run/postgresql:5432');
    expect(postgresHost('postgres://u@/ops', { PGHOST: 'pg.internal', PGPORT: '5433' })).toBe('pg.internal:5433');
  });

  it('tells a PostgreSQL target written with one slash or none how it is written', () => {
    for (const raw of ['postgres:/x', 'postgres:ops', 'postgresql:/u:hunter2@h/ops']) {
      const message = refusal(raw);
      expect(message).toMatch(/^--to: a PostgreSQL target is written postgres(ql)?:\/\/…, with two slashes \| write it postgres:\/\//);
      expect(message).not.toContain('hunter2');
    }
  });
});

describe('other targets', () => {
  it('refuses duckdb://…, which tools read both as a relative and as an absolute path, showing both spellings', () => {
    expect(refusal('duckdb://x.duckdb')).toBe(
      '--to duckdb://x.duckdb: a DuckDB file is named right after duckdb:, without // | a file in the current directory: --to duckdb:x.duckdb; an absolute path: --to duckdb:/x.duckdb',
    );
    expect(refusal('duckdb:///tmp/x')).toMatch(/--to duckdb:tmp\/x; an absolute path: --to duckdb:\/tmp\/x$/);
    expect(refusal('duckdb://my ops.duckdb')).toMatch(/--to 'duckdb:my ops\.duckdb'; an absolute path: --to 'duckdb:\/my ops\.duckdb'$/);
    // The two spellings that work.
    expect(parseTarget('duckdb:x.duckdb', '/w', {})).toMatchObject({ kind: 'duckdb', path: '/w/x.duckdb' });
    expect(parseTarget('duckdb:/abs/path/x.duckdb', '/w', {})).toMatchObject({ kind: 'duckdb', path: '/abs/path/x.duckdb' });
  });

  it('says an empty --to is empty, and suggests nothing that is itself refused', () => {
    for (const raw of ['', '  ']) {
      const message = refusal(raw);
      expect(message).toBe(
        '--to is empty: name the database (duckdb:PATH, postgres://… or postgresql://…) | without --to, sync writes duckdb:appraisal.duckdb in the current directory',
      );
      expect(message).not.toMatch(/--to duckdb:(\s|$)/);
    }
  });
});
