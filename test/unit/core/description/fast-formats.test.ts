// The quick date checks in front of ajv-formats' (src/core/description/fast-formats.ts): whatever
// they accept, ajv-formats' full check accepts too, so the validator says exactly what it said
// without them — over every month and day of common and leap years, and over strings made of the
// parts a timestamp has (fast-check), each part also out of its range or in another spelling.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addQuickDateFormats, PLAIN_DATE, PLAIN_DATE_TIME } from '../../../../src/core/description/fast-formats.js';
import { readContract } from '../../../../src/core/description/document.js';
import { createValidator } from '../../../../src/core/description/validate.js';

const { fullFormats } = createRequire(import.meta.url)('ajv-formats/dist/formats.js') as {
  fullFormats: Record<'date' | 'date-time', { validate: (value: string) => boolean }>;
};
const fullDate = fullFormats.date.validate;
const fullDateTime = fullFormats['date-time'].validate;

const two = (n: number) => String(n).padStart(2, '0');
const YEARS = ['0000', '1900', '2000', '2023', '2024', '2100', '9999'];

describe('the quick date checks', () => {
  it('accept no date and no date-time that ajv-formats refuses: every month 00-13 and day 00-32 of common and leap years', () => {
    let quick = 0;
    for (const year of YEARS)
      for (let month = 0; month <= 13; month += 1)
        for (let day = 0; day <= 32; day += 1) {
          const date = `${year}-${two(month)}-${two(day)}`;
          if (PLAIN_DATE.test(date)) {
            quick += 1;
            expect(fullDate(date), date).toBe(true);
          }
          const dateTime = `${date}T23:59:59.999Z`;
          if (PLAIN_DATE_TIME.test(dateTime)) expect(fullDateTime(dateTime), dateTime).toBe(true);
        }
    // All but 29 February of each year (12 x 30.4 days less the 29th of February).
    expect(quick).toBe(YEARS.length * 365);
  });

  it('accept no string made of a timestamp parts that ajv-formats refuses, and the validator answers as ajv-formats alone', () => {
    const number = (max: number) => fc.integer({ min: 0, max }).map(two);
    const timestamp = fc
      .tuple(
        fc.constantFrom(...YEARS, '202', '20245'),
        number(19),
        number(39),
        fc.constantFrom('T', 't', ' ', 'x', ''),
        number(29),
        number(69),
        number(69),
        fc.constantFrom('', '.5', '.123456789', '.', ',5'),
        fc.constantFrom('Z', 'z', '', '+01:00', '-23:59', '+24:00', '+05:60', '+0100', '+01', '-00:00', 'Z ', '+1:00'),
      )
      .map(([y, mo, d, sep, h, mi, s, frac, off]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac}${off}`);
    const formats: Record<string, { validate: (value: string) => boolean }> = { ...fullFormats };
    addQuickDateFormats({ formats, addFormat: (name, format) => (formats[name] = format as (typeof formats)[string]) });
    fc.assert(
      fc.property(timestamp, (value) => {
        if (PLAIN_DATE_TIME.test(value)) expect(fullDateTime(value)).toBe(true);
        expect(formats['date-time']!.validate(value)).toBe(fullDateTime(value));
        const date = value.slice(0, 10);
        expect(formats.date!.validate(date)).toBe(fullDate(date));
      }),
      { numRuns: 20_000 },
    );
  });

  it('leave to the full check what they do not take: a leap day, a leap second, a lower-case t, an offset without a colon', async () => {
    const contract = readContract({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          T: { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, on: { type: 'string', format: 'date' } } },
        },
      },
    });
    const validator = await createValidator(contract);
    const check = (value: Record<string, string>) =>
      validator.request({ requestSchema: { $ref: '#/components/schemas/T' } } as never, value);
    for (const at of [
      '2024-02-29T12:00:00Z',
      '2016-12-31T23:59:60Z',
      '2024-05-06t07:08:09z',
      '2024-05-06T07:08:09+0100',
      '2024-05-06 07:08:09Z',
    ])
      expect(check({ at }), at).toEqual([]);
    for (const at of ['2023-02-29T12:00:00Z', '2024-05-06T24:00:00Z', '2024-05-06T07:08:09', '2024-13-06T07:08:09Z'])
      expect(check({ at }), at).toEqual([{ path: '$.at', message: 'must match format "date-time"' }]);
    expect(check({ on: '2024-02-29' })).toEqual([]);
    expect(check({ on: '2023-02-29' })).toEqual([{ path: '$.on', message: 'must match format "date"' }]);
  });
});
