// Shared by the import e2e tests: import files of new properties, the results CSV read back with a
// real CSV reader, and the service's truth (records by parcel number) read through the admin client.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { MockAdmin } from '../helpers/mock-admin.js';

export const PROPERTY_HEADER = [
  'name',
  'propertyType',
  'parcelNumber',
  'yearBuilt',
  'address.line1',
  'address.city',
  'address.region',
  'address.postalCode',
  'address.country',
];

/** One new property as CSV cells: parcel `${tag}-${n}`, ZIP with a leading zero. */
export function propertyCells(tag: string, n: number, yearBuilt = 1950 + (n % 70)): string[] {
  return [`${tag} ${n}`, 'office', `${tag}-${n}`, String(yearBuilt), `${n} Pier Rd`, 'Boston', 'MA', '02110', 'US'];
}

export function propertyRecord(tag: string, n: number): Record<string, unknown> {
  return {
    name: `${tag} ${n}`,
    propertyType: 'office',
    parcelNumber: `${tag}-${n}`,
    yearBuilt: 1950 + (n % 70),
    address: { line1: `${n} Pier Rd`, city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
  };
}

export function csvText(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Write a CSV of `count` new properties tagged `tag` in `dir`; returns its path. */
export function writePropertiesCsv(dir: string, name: string, tag: string, count: number, first = 1): string {
  const rows = Array.from({ length: count }, (_, index) => propertyCells(tag, first + index));
  const path = join(dir, name);
  writeFileSync(path, csvText(PROPERTY_HEADER, rows));
  return path;
}

/** A results (or any) CSV as objects by header. */
export function readCsv(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>;
}

/** How many properties the service holds per parcel number starting with `tag-`. */
export async function parcelCounts(admin: MockAdmin, tag: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 1; ; page++) {
    const answer = await admin.call('GET', `/api/properties?page=${page}&limit=100`);
    const body = answer.body as { items: Array<{ parcelNumber?: string | null }>; pagination: { pages: number } };
    for (const item of body.items) {
      const parcel = item.parcelNumber ?? '';
      if (parcel.startsWith(`${tag}-`)) counts.set(parcel, (counts.get(parcel) ?? 0) + 1);
    }
    if (page >= body.pagination.pages) return counts;
  }
}

/** Summary line counts ("created 3,000, updated 0, ...") as numbers. */
export function summaryCounts(stdout: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of stdout.matchAll(/\b(create|created|update|updated|unchanged|invalid|failed|skipped) ([\d,]+)/g))
    counts[match[1]!] = Number(match[2]!.replaceAll(',', ''));
  return counts;
}
