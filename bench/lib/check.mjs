// Correctness checks on what a benchmarked command produced: a wrong record count or a corrupted
// file fails the row, it is never averaged away.
import { createHash, randomFillSync } from 'node:crypto';
import { closeSync, createReadStream, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** Lines, distinct ids and unparsable lines of an NDJSON export. */
export async function checkNdjson(path) {
  const ids = new Set();
  let lines = 0;
  let bad = 0;
  const reader = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of reader) {
    if (line === '') continue;
    lines++;
    try {
      const record = JSON.parse(line);
      if (record && typeof record.id === 'string') ids.add(record.id);
      else bad++;
    } catch {
      bad++;
    }
  }
  return { lines, distinctIds: ids.size, bad };
}

/** Records and distinct ids across the page files a curl loop wrote (collection envelopes). */
export function checkPages(paths) {
  const ids = new Set();
  let records = 0;
  let bad = 0;
  for (const path of paths) {
    try {
      const page = JSON.parse(readFileSync(path, 'utf8'));
      for (const item of page.items) {
        records++;
        ids.add(item.id);
      }
    } catch {
      bad++;
    }
  }
  return { records, distinctIds: ids.size, bad };
}

/** Throws unless an export holds exactly `expected` distinct, well-formed records. */
export function assertCount(what, found, expected) {
  const count = found.lines ?? found.records;
  if (count !== expected || found.distinctIds !== expected || found.bad !== 0) {
    throw new Error(
      `${what}: expected ${expected} records, got ${count} (${found.distinctIds} distinct ids, ${found.bad} unparsable lines or pages)`,
    );
  }
}

export function sha256File(path) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** Writes `bytes` random bytes to `path`; returns their sha256. */
export function writeRandomFile(path, bytes) {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(8 << 20);
  const fd = openSync(path, 'w');
  try {
    for (let left = bytes; left > 0;) {
      const n = Math.min(left, chunk.length);
      randomFillSync(chunk, 0, n);
      const view = chunk.subarray(0, n);
      hash.update(view);
      for (let off = 0; off < n;) off += writeSync(fd, view, off, n - off);
      left -= n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Throws unless the file at `path` has the expected size and sha256. */
export async function assertSameFile(what, path, bytes, sha256) {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size !== bytes) throw new Error(`${what}: expected ${bytes} bytes, got ${size ?? 'no file'}`);
  const digest = await sha256File(path);
  if (digest !== sha256) throw new Error(`${what}: content differs (sha256 ${digest.slice(0, 12)}…, expected ${sha256.slice(0, 12)}…)`);
}
