// The bench's sections (bench/sections.mjs) are the only list of its rows: the report's order, the
// planned rows a failed section is marked FAILED on, and the table of docs/PERFORMANCE.md all come
// from them. These checks keep that list sound without running a benchmark: every row id unique
// across sections, at both sizes; every row with a label and a target (a bound, or "reference, no
// target"); targets declared once; and every reason of a missed target naming a row that exists.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, without type declarations
import { allTargets, SECTIONS } from '../../../bench/sections.mjs';
// @ts-expect-error: as above
import { FULL, QUICK } from '../../../bench/lib/sizes.mjs';
// @ts-expect-error: as above
import { REASONS } from '../../../bench/lib/reasons.mjs';

interface Row {
  id: string;
  benchmark: string;
  target: string;
}
interface Section {
  name: string;
  title: string;
  needs?: string[];
  targets: Record<string, number>;
  rows: (config: { SIZE: Record<string, number>; TARGET: Record<string, number> }) => Row[];
  measure: (...args: unknown[]) => Promise<void>;
}

const sections = SECTIONS as Section[];
const TARGET = (allTargets as () => Record<string, number>)();

describe('bench sections', () => {
  it('have unique names, a title and a measure function each', () => {
    const names = sections.map((section) => section.name);
    expect(new Set(names).size).toBe(names.length);
    for (const section of sections) {
      expect(section.name).toMatch(/^[a-z]+$/);
      expect(section.title.length).toBeGreaterThan(0);
      expect(typeof section.measure).toBe('function');
      for (const tool of section.needs ?? []) expect(['curl']).toContain(tool);
    }
  });

  for (const [sizes, SIZE] of [
    ['full', FULL],
    ['quick', QUICK],
  ] as Array<[string, Record<string, number>]>) {
    it(`declare unique row ids, each with a label and a target (${sizes} sizes)`, () => {
      const rows = sections.flatMap((section) => section.rows({ SIZE, TARGET }));
      const ids = rows.map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain('doctor');
      for (const row of rows) {
        expect(row.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
        expect(row.benchmark.length).toBeGreaterThan(0);
        // A bound (≤, <, ≥ and a number) or a reference row said to be one; never an unfilled value.
        expect(row.target).toMatch(/^([≤<≥] \d+(\.\d+)?(x|%| MiB)|reference, no target$)/);
        expect(`${row.benchmark} ${row.target}`).not.toMatch(/undefined|NaN/);
      }
    });
  }

  it('declare each target once, as a positive number', () => {
    const keys = sections.flatMap((section) => Object.keys(section.targets));
    expect(new Set(keys).size).toBe(keys.length);
    for (const value of Object.values(TARGET)) expect(value).toBeGreaterThan(0);
  });

  it('give the reason of a missed target only for rows that exist', () => {
    const ids = new Set(sections.flatMap((section) => section.rows({ SIZE: FULL, TARGET }).map((row) => row.id)));
    for (const id of Object.keys(REASONS as Record<string, string>)) expect(ids).toContain(id);
  });
});
