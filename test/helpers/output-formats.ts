// Reads a command's stdout back in each output format, so an e2e test can assert the same facts
// (which records, which columns) whatever -o was.
export const FORMATS = ['json', 'ndjson', 'csv', 'table'] as const;
export type Format = (typeof FORMATS)[number];

/** RFC 4180: quoted fields, doubled quotes, CRLF rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The cells of every row of a cli-table3 table (borders dropped; a wrapped value continues on a row with an empty first cell). */
export function parseTable(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('│')
        .map((cell) => cell.trim()),
    );
}

function rowsToRecords(rows: string[][]): Array<Record<string, string>> {
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

export interface ListOutput {
  /** Column names (csv, table) or undefined (json, ndjson). */
  columns: string[] | undefined;
  records: Array<Record<string, unknown>>;
}

/** A list command's output. Table cells are strings, possibly cut with …. */
export function readList(format: Format, stdout: string): ListOutput {
  switch (format) {
    case 'json': {
      const value: unknown = JSON.parse(stdout);
      if (!Array.isArray(value)) throw new Error(`json list output is not an array: ${stdout.slice(0, 200)}`);
      return { columns: undefined, records: value as Array<Record<string, unknown>> };
    }
    case 'ndjson':
      return {
        columns: undefined,
        records: stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      };
    case 'csv': {
      const rows = parseCsv(stdout);
      return { columns: rows[0], records: rowsToRecords(rows) };
    }
    case 'table': {
      const rows = parseTable(stdout);
      return { columns: rows[0], records: rowsToRecords(rows) };
    }
  }
}

/** A single-record command's output (get, create, update). Table values are strings. */
export function readRecord(format: Format, stdout: string): Record<string, unknown> {
  switch (format) {
    case 'json':
      return JSON.parse(stdout) as Record<string, unknown>;
    case 'ndjson': {
      const lines = stdout.split('\n').filter(Boolean);
      if (lines.length !== 1) throw new Error(`expected one ndjson line, got ${lines.length}`);
      return JSON.parse(lines[0]!) as Record<string, unknown>;
    }
    case 'csv': {
      const records = rowsToRecords(parseCsv(stdout));
      if (records.length !== 1) throw new Error(`expected one csv row, got ${records.length}`);
      return records[0]!;
    }
    case 'table': {
      const record: Record<string, string> = {};
      let last = '';
      for (const [key = '', value = ''] of parseTable(stdout)) {
        if (key === '') record[last] += value;
        else record[(last = key)] = value;
      }
      return record;
    }
  }
}
