// The byte-stream mask `keys lease` puts on its child's output: the secret is replaced wherever it
// is split, every other byte is kept, and nothing but a possible start of the secret waits.
import { describe, expect, it } from 'vitest';
import { secretMask } from '../../../src/core/secret-mask.js';

const SECRET = 'apk_AbCd1234_0123456789abcdefghijklmnopqrstuv';
const SHOWN = 'apk_AbCd1234…';

/** Feed `chunks` through a mask; what came out, and what came out before the end. */
async function through(chunks: readonly (string | Buffer)[]): Promise<{ out: string; beforeEnd: string }> {
  const mask = secretMask(SECRET, SHOWN);
  const parts: Buffer[] = [];
  mask.on('data', (chunk: Buffer) => parts.push(chunk));
  for (const chunk of chunks) mask.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  await new Promise((resolve) => setImmediate(resolve));
  const beforeEnd = Buffer.concat(parts).toString('utf8');
  mask.end();
  await new Promise((resolve) => mask.on('end', resolve));
  return { out: Buffer.concat(parts).toString('utf8'), beforeEnd };
}

describe('secretMask', () => {
  const line = `token=${SECRET}; next ${SECRET}\n`;
  it('masks the secret split at every byte position, keeping the rest of the line', async () => {
    for (let at = 0; at <= line.length; at++) {
      const { out } = await through([line.slice(0, at), line.slice(at)]);
      expect(out, `split at ${at}`).toBe(`token=${SHOWN}; next ${SHOWN}\n`);
    }
  });

  it('masks it written one byte at a time, and its percent-encoded form', async () => {
    const { out } = await through([...`a ${SECRET} b ${SECRET.replaceAll('_', '%5F')} c`]);
    expect(out).toBe(`a ${SHOWN} b ${SHOWN} c`);
  });

  it('holds back only what could start the secret: a prompt shows at once, a near miss at the end', async () => {
    const prompt = await through(['Continue? [y/N] ']);
    expect(prompt.beforeEnd).toBe('Continue? [y/N] ');
    const nearMiss = await through(['done apk_AbCd']);
    expect(nearMiss.beforeEnd).toBe('done ');
    expect(nearMiss.out).toBe('done apk_AbCd');
  });

  it('passes binary bytes that are not the secret untouched', async () => {
    const bytes = Buffer.from([0, 255, 97, 112, 107, 95, 1, 2, 200]);
    const mask = secretMask(SECRET, SHOWN);
    const parts: Buffer[] = [];
    mask.on('data', (chunk: Buffer) => parts.push(chunk));
    mask.end(bytes);
    await new Promise((resolve) => mask.on('end', resolve));
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });
});
