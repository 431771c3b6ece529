// Issue 26 item 9: a crafted service description. A pattern RE2 cannot compile (a backreference) and
// a schema that includes itself (allOf) are contract errors (exit 9), not a hang or a stack overflow.
// In process; a catastrophic pattern (`^(a+)+$`), whose failure would be a hang, runs as a child
// with a deadline: hostile-process.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run } from '../helpers/run.js';
import { crafted, propertyBody } from '../hostile/crafted-description.js';
import { startHostile, type HostileServer } from '../hostile/server.js';

const KEY = 'apk_Patternz_PatternS3cretPatternS3cretPatt42';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostile();
});
afterAll(async () => {
  await server.close();
});

const env = () => isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY });

describe('descriptions that cannot be checked safely', () => {
  it('a backreference: a contract error naming the pattern (exit 9)', async () => {
    const spec = crafted((schemas) => {
      schemas.PropertyCreate!.properties!.name!.pattern = '^(a)\\1$';
    });
    const result = await run(['props', 'create', '--data', propertyBody('aa'), '--spec', spec], { env: env() });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/^error: the service description's pattern "\^\(a\)\\\\1\$" cannot be checked in linear time/m);
  });

  it('a self-referencing allOf: a contract error (exit 9), not "Maximum call stack size exceeded"', async () => {
    const spec = crafted((schemas) => {
      schemas.PropertyCreate = { allOf: [{ $ref: '#/components/schemas/PropertyCreate' }] };
    });
    const result = await run(['props', 'create', '--data', propertyBody('x'), '--spec', spec], { env: env() });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/^error: the service description's schema refers to itself without end/m);
    expect(result.stderr).not.toMatch(/Maximum call stack/);
  });
});
