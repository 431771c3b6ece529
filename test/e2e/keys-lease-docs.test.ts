// The documented `keys lease` line with the pipeline key on file descriptor 3 (README.md,
// docs/KEYS.md, docs/CI.md), run with its arguments as the docs write them. examples.test.ts cannot
// run it in process (a descriptor of a shell's redirect), and keys-lease.test.ts runs the pattern
// with arguments of its own; this reads the arguments from the docs, so a line that is refused
// (`./nightly-report.sh` is no appraisal command: without --scope it needs one) fails here.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { BIN, runCli } from '../helpers/spawn.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;
beforeAll(async () => {
  mock = await startMock({ records: 1 });
  admin = mockAdmin(mock);
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

const DOCS = ['README.md', 'docs/KEYS.md', 'docs/CI.md'];
const MARK = 'appraisal --api-key-file /dev/fd/3 keys lease';

/** Each documented line: where, and the arguments after `appraisal` up to the fd 3 redirect. */
function documentedLines(): Array<{ where: string; args: string[] }> {
  return DOCS.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const at = text.indexOf(MARK);
        if (at === -1) return [];
        const command = text.slice(at, text.indexOf(' 3<', at));
        return [{ where: `${file}:${index + 1}`, args: command.split(/\s+/).slice(1) }];
      }),
  );
}

describe('the documented keys lease line with the pipeline key on fd 3', () => {
  const lines = documentedLines();

  it('is in the README, docs/KEYS.md and docs/CI.md', () => {
    expect(lines.map((line) => line.where.split(':')[0])).toEqual(expect.arrayContaining(DOCS));
  });

  it.each(lines)('$where runs the job with a lease and revokes it', async ({ args }) => {
    const dir = tempDir('lease-docs-');
    // The job the docs name: it records that it ran with a key of the service in its environment.
    const job = join(dir, 'nightly-report.sh');
    writeFileSync(job, '#!/bin/sh\nprintf "%s" "${APPRAISAL_API_KEY%_*}" > ran.txt\n');
    chmodSync(job, 0o755);
    // The pipeline key on fd 3 from a pipe, as `3< <(vault kv get …)` gives it; here read from stdin.
    const result = await runCli(args, {
      env: isolatedEnv({ ...mock.env, APPRAISAL_API_KEY: undefined, APPRAISAL_ENVIRONMENT: 'local' }),
      program: ['bash', '-c', 'exec "$0" "$@" 3< <(head -n 1)', process.execPath, BIN],
      stdin: `${mock.adminKey}\n`,
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    const prefix = /Leased key (apk_[A-Za-z0-9]{8})/.exec(result.stderr)?.[1];
    expect(prefix, result.stderr).toBeDefined();
    expect(readFileSync(join(dir, 'ran.txt'), 'utf8')).toBe(prefix);
    const record = await admin.keyByPrefix(prefix!);
    expect(record?.scopes).toEqual(['properties:read']);
    expect(record?.revokedAt).not.toBeNull();
  });
});
