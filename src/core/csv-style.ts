// How a csv is written, beyond RFC 4180's defaults: the cell separator (--delimiter) and a leading
// UTF-8 byte-order mark (--bom). Both exist for spreadsheets: Excel splits a double-clicked "CSV" on the
// list separator of the machine's region (a semicolon wherever the comma is the decimal mark: most of
// Europe and South America), and reads it as UTF-8 only when it starts with a BOM. `import` reads both
// back (it takes the separator from the header line and drops a BOM). Checked once, when the output
// plan is made; a resumed or split export must be written the same way (formatIdentity).
import { UsageError } from './errors.js';
import type { OutputFormat } from './global-options.js';

/** What may stand between CSV cells: a comma, a semicolon or a tab. */
export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvStyle {
  delimiter: CsvDelimiter;
  /** The text starts with a UTF-8 byte-order mark. */
  bom: boolean;
}

/** The UTF-8 byte-order mark, as text: what --bom (and an import's failed rows from another encoding) start with. */
export const BOM = '\ufeff';

const DELIMITERS: Readonly<Record<string, CsvDelimiter>> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  tab: '\t',
  '\\t': '\t',
  '\t': '\t',
};

/** The separators by name, as shell completion offers them (a bare `;` would end the shell's command). */
export const CSV_DELIMITER_NAMES: readonly string[] = ['comma', 'semicolon', 'tab'];

/**
 * --delimiter and --bom as the plan keeps them: the style, or the usage error a bad value or a format
 * other than csv earns (thrown when the plan is checked, before any request).
 */
export function csvStyleOf(delimiter: string | undefined, bom: boolean, format: OutputFormat | UsageError): CsvStyle | UsageError {
  const chosen = delimiter === undefined ? ',' : DELIMITERS[delimiter.toLowerCase()];
  if (chosen === undefined)
    return new UsageError(`--delimiter ${JSON.stringify(delimiter!.slice(0, 20))}: a csv's cells are separated by ",", ";" or tab`);
  if ((delimiter !== undefined || bom) && format !== 'csv' && !(format instanceof UsageError))
    return new UsageError(`${delimiter !== undefined ? '--delimiter' : '--bom'} is for csv output`, {
      hint: 'add -o csv (or name the --out file .csv)',
    });
  return { delimiter: chosen, bom };
}

/** The format as an interrupted export records it, so that a resumed one is written the same way: `csv separated by semicolons, with a BOM`. */
export function formatIdentity(format: OutputFormat, style: CsvStyle): string {
  if (format !== 'csv') return format;
  const separated = style.delimiter === ',' ? '' : ` separated by ${style.delimiter === ';' ? 'semicolons' : 'tabs'}`;
  return `csv${separated}${style.bom ? `${separated ? ',' : ''} with a BOM` : ''}`;
}
