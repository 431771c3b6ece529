// A quick first check in front of ajv-formats' `date-time` and `date` (--validate, sync's record
// checks): a record's timestamps are nearly always in the one shape the service writes
// (`2025-12-08T18:46:43.763Z`), which one regular expression accepts at once; anything it does not
// accept (a 29 February, a leap second, `t`, a space, an offset without a colon, or a wrong value) is
// decided by ajv-formats' own check, so what is valid is exactly what it says.
// Measured: ajv-formats' date-time (a split, two regular expressions, the numbers read) was ~60 ms of
// CPU of a 20,000-record `props list --validate` (two timestamps a record, and garbage); the
// expression below checks the same 40,000 strings in ~3 ms where it took ~30.

/** A month and a day every year has: Feb 29 is left to the full check. */
const MONTH_DAY = '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)';
const CLOCK = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
const OFFSET = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';

/** Strings ajv-formats' full `date-time` accepts, in its most common shape (each part within its range). */
export const PLAIN_DATE_TIME = new RegExp(`^\\d{4}-${MONTH_DAY}T${CLOCK}${OFFSET}$`);
/** Strings ajv-formats' full `date` accepts, in its most common shape. */
export const PLAIN_DATE = new RegExp(`^\\d{4}-${MONTH_DAY}$`);

type FormatCheck = (value: string) => boolean;
type FormatDefinition = { validate: FormatCheck; compare?: unknown };

function quickFirst(plain: RegExp, full: FormatDefinition): FormatDefinition {
  return { ...full, validate: (value) => plain.test(value) || full.validate(value) };
}

/**
 * `date-time` and `date` with the quick check first, in front of the ones ajv-formats added (given
 * ajv's formats once it has added them: this file loads no module, so start-up never pays for it).
 */
export function addQuickDateFormats(ajv: { formats: Record<string, unknown>; addFormat(name: string, format: object): unknown }): void {
  for (const [name, plain] of [
    ['date-time', PLAIN_DATE_TIME],
    ['date', PLAIN_DATE],
  ] as const) {
    const full = ajv.formats[name] as FormatDefinition | undefined;
    if (typeof full?.validate === 'function') ajv.addFormat(name, quickFirst(plain, full));
  }
}
