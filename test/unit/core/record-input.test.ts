import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { InterruptedError, UsageError } from '../../../src/core/errors.js';
import { locateJsonError, readRecordInput, type RecordInputOptions } from '../../../src/core/record-input/index.js';
import { fakeContext, type FakeContextOptions } from '../../helpers/fake-context.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeAll(async () => {
  dir = tempDir('appraisal-input-');
  await writeFile(join(dir, 'record.json'), '\ufeff{"name": "Main St", "address": {"city": "Leeds"}}\n');
  await writeFile(join(dir, 'broken.json'), '{\n  "name": "x",\n  "value": 12,,\n}\n');
  await writeFile(join(dir, 'empty.json'), '  \n');
  await writeFile(join(dir, 'latin1.json'), Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
  await mkdir(join(dir, 'folder'));
});

function read(options: RecordInputOptions, extra: FakeContextOptions = {}) {
  return readRecordInput(fakeContext({ cwd: dir, ...extra }).ctx, options);
}

async function failure(options: RecordInputOptions, extra: FakeContextOptions = {}): Promise<UsageError> {
  const error = await read(options, extra).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).message).not.toContain('\n');
  return error as UsageError;
}

describe('--data', () => {
  it('takes inline JSON', async () => {
    expect(await read({ data: '{"a": 1, "b": {"c": [true]}}' })).toEqual({ a: 1, b: { c: [true] } });
  });

  it('reads @file relative to the working directory, without a BOM', async () => {
    expect(await read({ data: '@record.json' })).toEqual({ name: 'Main St', address: { city: 'Leeds' } });
    expect(await read({ data: `@${join(dir, 'record.json')}` }, { cwd: '/' })).toEqual({ name: 'Main St', address: { city: 'Leeds' } });
  });

  it('reads - (and @-) from stdin', async () => {
    expect(await read({ data: '-' }, { stdinText: '{"from":"stdin"}' })).toEqual({ from: 'stdin' });
    expect(await read({ data: '@-' }, { stdinText: '{"from":"stdin"}' })).toEqual({ from: 'stdin' });
  });

  it('refuses stdin that is a terminal', async () => {
    const error = await failure({ data: '-' }, { stdinIsTTY: true });
    expect(error.message).toBe('--data - reads stdin, but stdin is a terminal');
    expect(error.hint).toContain('--data @');
  });

  it('stops waiting for stdin on Ctrl-C', async () => {
    const controller = new AbortController();
    const stdin = new PassThrough();
    const reading = read({ data: '-' }, { stdin, signal: controller.signal });
    // Interrupted while it waits: once it listens on stdin.
    await vi.waitFor(() => expect(stdin.listenerCount('data') + stdin.listenerCount('readable')).toBeGreaterThan(0));
    controller.abort(new InterruptedError());
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
  });

  it('says where JSON is invalid', async () => {
    expect((await failure({ data: '{"a":}' })).message).toBe('--data: invalid JSON at position 5: unexpected character "}"');
    expect((await failure({ data: '{"a":1' })).message).toBe('--data: invalid JSON at position 6: unexpected end of input');
    expect((await failure({ data: "{'a':1}" })).message).toBe(
      '--data: invalid JSON at position 1: expected a property name in double quotes',
    );
    expect((await failure({ data: '{"a":1} x' })).message).toBe('--data: invalid JSON at position 8: unexpected text after the JSON value');
    expect((await failure({ data: '@broken.json' })).message).toBe(
      '--data @broken.json: invalid JSON at position 31 (line 3, column 15): expected a property name in double quotes',
    );
    expect((await failure({ data: '-' }, { stdinText: '[1,]' })).message).toBe(
      '--data -: invalid JSON at position 3: unexpected character "]"',
    );
  });

  it('refuses empty input, non-objects, unreadable files and non-UTF-8', async () => {
    expect((await failure({ data: '' })).message).toBe('--data: empty input, expected a JSON object');
    expect((await failure({ data: '@empty.json' })).message).toBe('--data @empty.json: empty input, expected a JSON object');
    expect((await failure({ data: '-' }, { stdinText: '' })).message).toBe('--data -: empty input, expected a JSON object');
    expect((await failure({ data: '[1,2]' })).message).toBe('--data must be a JSON object, got an array');
    expect((await failure({ data: 'null' })).message).toBe('--data must be a JSON object, got null');
    expect((await failure({ data: '"text"' })).message).toBe('--data must be a JSON object, got a string');
    expect((await failure({ data: '@missing.json' })).message).toBe('--data @missing.json: file not found');
    expect((await failure({ data: '@folder' })).message).toBe('--data @folder: is a directory, not a file');
    expect((await failure({ data: '@' })).message).toContain('needs a file name');
    expect((await failure({ data: '@latin1.json' })).message).toBe('--data @latin1.json: not UTF-8 text');
  });

  it('refuses keys that could reach a prototype, at any depth', async () => {
    expect((await failure({ data: '{"__proto__": {"admin": true}}' })).message).toBe('--data: the field name "__proto__" is not allowed');
    expect((await failure({ data: '{"a": [{"constructor": {}}]}' })).message).toBe(
      '--data: the field name "a.0.constructor" is not allowed',
    );
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses numbers JSON.parse would change, as -F does (rounded past 2^53, 1e400 sent as null)', async () => {
    const rounded = await failure({ data: '{"fee": {"amount": 12345678901234567890}}' });
    expect(rounded.message).toBe('--data: 12345678901234567890 is too large for an exact JSON number');
    expect(rounded.hint).toBe('send it as a string: "12345678901234567890"');
    expect((await failure({ data: '{"landArea": [1, 1e400]}' })).message).toBe(
      '--data: a number is too large for JSON (it would be sent as null)',
    );
    // Long digit runs in strings, and numbers a double holds exactly, are kept.
    expect(await read({ data: '{"parcel": "12345678901234567890", "n": 9007199254740992, "x": 1e300}' })).toEqual({
      parcel: '12345678901234567890',
      n: 9007199254740992,
      x: 1e300,
    });
  });

  it('asks for a record when nothing is given', async () => {
    const error = await failure({});
    expect(error.message).toBe('no record given');
    expect(error.hint).toContain('-f field=value');
  });
});

describe('-f and -F', () => {
  it('sets string values, dotted keys making nested objects', async () => {
    expect(await read({ fields: ['name=Main St', 'address.city=Leeds', 'address.zip=LS1', 'count=12', 'empty=', 'eq=a=b'] })).toEqual({
      name: 'Main St',
      address: { city: 'Leeds', zip: 'LS1' },
      count: '12',
      empty: '',
      eq: 'a=b',
    });
  });

  it('reads -F values as JSON, falling back to a string', async () => {
    expect(
      await read({
        typedFields: [
          'n=12',
          'f=1.5',
          'yes=true',
          'none=null',
          'list=[1,"a"]',
          'obj={"k":1}',
          'zip=01234',
          'word=hello',
          'id=123e4567-e89b',
        ],
      }),
    ).toEqual({ n: 12, f: 1.5, yes: true, none: null, list: [1, 'a'], obj: { k: 1 }, zip: '01234', word: 'hello', id: '123e4567-e89b' });
  });

  it('refuses numbers JSON cannot carry exactly', async () => {
    expect((await failure({ typedFields: ['n=12345678901234567890'] })).message).toContain('too large for an exact JSON number');
    await failure({ typedFields: ['n=1e400'] });
  });

  it('applies on top of --data: -f in order, then -F', async () => {
    expect(
      await read({
        data: '{"name":"old","address":{"city":"York","zip":"Y1"}}',
        fields: ['name=new', 'address.city=Leeds', 'name=newer'],
        typedFields: ['address.zip=null'],
      }),
    ).toEqual({ name: 'newer', address: { city: 'Leeds', zip: null } });
  });

  it('refuses a path through a value that is not an object', async () => {
    expect((await failure({ data: '{"address":"x"}', fields: ['address.city=Leeds'] })).message).toBe(
      '-f address.city: address is a string, not an object',
    );
    expect((await failure({ fields: ['a=1', 'a.b=2'] })).message).toBe('-f a.b: a is a string, not an object');
  });

  it('refuses a bad key=value', async () => {
    expect((await failure({ fields: ['novalue'] })).message).toBe('-f expects key=value, got "novalue"');
    expect((await failure({ fields: ['=x'] })).message).toBe('-f expects key=value, got "=x"');
    expect((await failure({ typedFields: ['a..b=1'] })).message).toBe('-F "a..b": empty part in the field name');
    expect((await failure({ fields: ['.a=1'] })).message).toContain('empty part');
  });

  it('refuses __proto__, constructor and prototype', async () => {
    for (const raw of ['__proto__.admin=true', 'a.constructor.prototype=x', 'prototype=1']) {
      expect((await failure({ fields: [raw] })).message).toMatch(/the field name "(__proto__|constructor|prototype)" is not allowed/);
    }
    expect((await failure({ typedFields: ['a={"__proto__":{"x":1}}'] })).message).toBe('-F a: the field name "__proto__" is not allowed');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('locateJsonError', () => {
  it('agrees that valid JSON is valid', () => {
    for (const text of ['{}', '[]', '0', '-1.5e+3', '"\\u00e9\\n"', ' {"a":[1,{"b":null}],"c":false} ']) {
      expect(locateJsonError(text)).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  it('finds bad escapes, control characters and numbers', () => {
    expect(locateJsonError('{"a":"\\x"}')?.reason).toBe('invalid escape in a string');
    expect(locateJsonError('{"a":"b\nc"}')).toEqual({
      position: 7,
      reason: 'control character in a string (write it as an escape, e.g. \\n)',
    });
    expect(locateJsonError('[01]')?.reason).toBe("expected ',' or ']' after an array element");
    expect(locateJsonError('[-]')?.reason).toBe('invalid number');
  });
});
