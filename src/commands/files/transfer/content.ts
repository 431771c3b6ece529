// A file's bytes as size + sha256, and what the service's metadata promises about them.

export interface Content {
  size: number;
  /** Lower-case hex. */
  sha256: string;
}

export type ExpectedContent = Partial<Content>;

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** What a file record promises: `size` and `sha256` when present and well-formed. */
export function expectedContent(record: Readonly<Record<string, unknown>>): ExpectedContent {
  const expected: ExpectedContent = {};
  if (typeof record.size === 'number' && Number.isSafeInteger(record.size) && record.size >= 0) expected.size = record.size;
  if (typeof record.sha256 === 'string' && SHA256_HEX.test(record.sha256)) expected.sha256 = record.sha256.toLowerCase();
  return expected;
}

/** How `actual` differs from `expected` in what both state, or undefined when it matches. */
export function contentMismatch(actual: ExpectedContent, expected: ExpectedContent): string | undefined {
  if (actual.size !== undefined && expected.size !== undefined && actual.size !== expected.size) {
    return `${actual.size} bytes instead of ${expected.size}`;
  }
  if (actual.sha256 !== undefined && expected.sha256 !== undefined && actual.sha256 !== expected.sha256) {
    return `sha256 ${actual.sha256} instead of ${expected.sha256}`;
  }
  return undefined;
}
