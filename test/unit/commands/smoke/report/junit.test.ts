import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalEnvironmentError } from '../../../../../src/core/errors.js';
import { escapeXml, renderJUnit, writeJUnitReport, type JUnitSuite } from '../../../../../src/commands/smoke/report/junit.js';
import { tempDir } from '../../../../helpers/temp.js';

const SUITE: JUnitSuite = {
  name: 'appraisal smoke',
  timestamp: new Date('2026-03-01T10:00:00.123Z'),
  time: 1.23456,
  properties: { environment: 'staging', baseUrl: 'https://staging.example.com' },
  cases: [
    { name: 'reachable', classname: 'appraisal.smoke', time: 0.012, status: 'pass', detail: 'HTTP 200' },
    {
      name: 'credential',
      classname: 'appraisal.smoke',
      time: 0.5,
      status: 'fail',
      message: 'GET /api/keys/current: 503 <Service "Unavailable"> & co',
      type: 'ServiceUnavailableError',
    },
    { name: 'list keys', classname: 'appraisal.smoke', time: 0, status: 'skip', message: 'needs api:admin' },
  ],
};

describe('renderJUnit', () => {
  it('writes one testsuite with counts, properties and a testcase per check', () => {
    const xml = renderJUnit(SUITE);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="appraisal smoke" tests="3" failures="1" errors="0" time="1.235">',
      ),
    ).toBe(true);
    expect(xml).toContain(
      '<testsuite name="appraisal smoke" tests="3" failures="1" errors="0" skipped="1" time="1.235" timestamp="2026-03-01T10:00:00Z">',
    );
    expect(xml).toContain('<property name="environment" value="staging"/>');
    expect(xml).toContain('<testcase name="reachable" classname="appraisal.smoke" time="0.012">');
    expect(xml).toContain('<system-out>HTTP 200</system-out>');
    expect(xml).toContain(
      '<failure message="GET /api/keys/current: 503 &lt;Service &quot;Unavailable&quot;&gt; &amp; co" type="ServiceUnavailableError"></failure>',
    );
    expect(xml).toContain(
      '<testcase name="list keys" classname="appraisal.smoke" time="0.000">\n      <skipped message="needs api:admin"/>',
    );
    expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true);
  });

  it('drops characters XML cannot carry', () => {
    expect(escapeXml("a\u0000b\u001bc\td'e")).toBe('abc\td&apos;e');
  });
});

describe('writeJUnitReport', () => {
  it('writes the file atomically and leaves no temp file behind', async () => {
    const dir = tempDir('junit-');
    await writeJUnitReport(join(dir, 'smoke.xml'), SUITE);
    expect(readdirSync(dir)).toEqual(['smoke.xml']);
    expect(readFileSync(join(dir, 'smoke.xml'), 'utf8')).toBe(renderJUnit(SUITE));
  });

  it('fails with a local error when the directory is missing', async () => {
    await expect(writeJUnitReport(join(tmpdir(), 'no-such-dir-xyz', 'smoke.xml'), SUITE)).rejects.toThrow(LocalEnvironmentError);
  });
});
