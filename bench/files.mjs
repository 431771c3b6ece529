// Section "files": upload and download of a large file of random bytes over HTTPS: throughput against
// `curl -F` (upload) and against `curl -o … && sha256sum && sync` (download: the same work the CLI
// does), with plain Node and bare `curl -o` for reference, and the peak RSS of both directions
// against a fixed bound (the file streams). Every stored and downloaded file is checked by size and sha256.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertSameFile, writeRandomFile } from './lib/check.mjs';
import { cpuText, mib, MiB, r2, sec } from './lib/format.mjs';
import { runTimed } from './lib/proc.mjs';
import { cpuOf, mockCpuOf, wallOf } from './lib/samples.mjs';

const sizeText = (SIZE) => `${SIZE.fileBytes / MiB} MiB`;

export default {
  name: 'files',
  title: 'Upload and download',
  targets: {
    filesPeakMiB: 150,
    uploadThroughput: 0.7, // x curl -F
    downloadThroughput: 0.9, // x (curl -o + sha256sum + sync)
  },
  rows: ({ SIZE, TARGET }) => [
    {
      id: 'download-throughput',
      benchmark: `Download ${sizeText(SIZE)}: throughput vs \`curl -o … && sha256sum && sync\``,
      target: `≥ ${TARGET.downloadThroughput}x`,
    },
    {
      id: 'download-node',
      benchmark: `Download ${sizeText(SIZE)}: throughput vs the same socket→file copy in plain Node (sha256, fsync)`,
      target: 'reference, no target',
    },
    {
      id: 'download-curl',
      benchmark: `Download ${sizeText(SIZE)}: throughput vs \`curl -o\` alone (no hash, no sync)`,
      target: 'reference, no target',
    },
    { id: 'download-rss', benchmark: `Download ${sizeText(SIZE)}: peak RSS of \`files download\``, target: `< ${TARGET.filesPeakMiB} MiB` },
    { id: 'upload-rss', benchmark: `Upload ${sizeText(SIZE)}: peak RSS of \`files upload\``, target: `< ${TARGET.filesPeakMiB} MiB` },
    {
      id: 'upload-throughput',
      benchmark: `Upload ${sizeText(SIZE)}: throughput vs \`curl -F\``,
      target: `≥ ${TARGET.uploadThroughput}x curl`,
    },
  ],
  async measure(kit, planned) {
    const { CURL, ENV, RUN, SIZE, TARGET } = kit;
    const mock = await kit.getSmallMock();
    const bytes = SIZE.fileBytes;
    const blob = join(RUN, 'upload.bin');
    kit.log(`files: writing ${sizeText(SIZE)} of random bytes`);
    const sha256 = writeRandomFile(blob, bytes);
    const out = join(RUN, 'download.bin');
    const upOut = join(RUN, 'upload.json');
    const runs = { cliUp: [], curlUp: [], cliDown: [], curlDown: [], curlHashSync: [], nodeDown: [] };
    let downloadId;
    const dispose = async (id) => {
      if (downloadId === undefined) downloadId = id;
      else await kit.mockRequest(mock, 'DELETE', `/api/files/${encodeURIComponent(id)}`);
    };
    const checkUploaded = (what, record) => {
      if (typeof record?.id !== 'string') throw new Error(`${what}: the answer holds no file id`);
      if (record.size !== undefined && record.size !== bytes)
        throw new Error(`${what}: the service stored ${record.size} bytes, expected ${bytes}`);
      if (record.sha256 !== undefined && record.sha256 !== sha256) throw new Error(`${what}: the service's sha256 differs from the file's`);
      return record.id;
    };
    const keep = (list, run) => list.push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs, rssKiB: run.rssKiB });
    for (let rep = 0; rep < SIZE.fileReps; rep++) {
      const run = await kit.withMockCpu(mock, async () =>
        kit.ensureOk(
          'files upload',
          await kit.cli(['files', 'upload', blob, '-o', 'json'], { mock, stdout: upOut, rss: true, timeoutMs: 300_000 }),
        ),
      );
      const printed = JSON.parse(readFileSync(upOut, 'utf8'));
      await dispose(checkUploaded('files upload', printed?.data ?? printed));
      keep(runs.cliUp, run);
      if (CURL) {
        const cr = await kit.withMockCpu(mock, async () =>
          kit.ensureOk(
            'curl upload',
            await kit.curl(
              [...kit.curlBase(mock), '-H', 'Expect:', '-F', `file=@${blob};type=application/octet-stream`, `${mock.baseUrl}/api/files`],
              { stdout: upOut, rss: true, timeoutMs: 300_000 },
            ),
          ),
        );
        await dispose(checkUploaded('curl upload', JSON.parse(readFileSync(upOut, 'utf8'))?.data));
        keep(runs.curlUp, cr);
      }
      kit.sampleLoad();
      kit.log(`files: upload round ${rep + 1}/${SIZE.fileReps}`);
    }
    const contentPath = () => `/api/files/${encodeURIComponent(downloadId)}/content`;
    const downloads = [
      async () => {
        rmSync(out, { force: true });
        const run = await kit.withMockCpu(mock, async () =>
          kit.ensureOk(
            'files download',
            await kit.cli(['files', 'download', downloadId, '--out', out], { mock, rss: true, timeoutMs: 300_000 }),
          ),
        );
        await assertSameFile('files download', out, bytes, sha256);
        keep(runs.cliDown, run);
      },
      async () => {
        rmSync(out, { force: true });
        const run = await kit.floorRun(mock, 'download-floor.mjs', [contentPath(), out], 'node download floor');
        if (run.output.trim() !== sha256) throw new Error('the node download floor computed another sha256');
        await assertSameFile('node download floor', out, bytes, sha256);
        keep(runs.nodeDown, run);
      },
      async () => {
        if (!CURL) return;
        rmSync(out, { force: true });
        const cr = await kit.withMockCpu(mock, async () =>
          kit.ensureOk(
            'curl download',
            await kit.curl([...kit.curlBase(mock), '-o', out, `${mock.baseUrl}${contentPath()}`], { rss: true, timeoutMs: 300_000 }),
          ),
        );
        await assertSameFile('curl download', out, bytes, sha256);
        keep(runs.curlDown, cr);
      },
      async () => {
        if (!CURL) return;
        rmSync(out, { force: true });
        // The same work as the CLI: download, hash, and make the file durable (fsync of that file).
        const script = '"$CURL" "$@" -o "$OUT" "$URL" && sha256sum "$OUT" > "$OUT.sha256" && sync "$OUT"';
        const cr = await kit.withMockCpu(mock, async () =>
          kit.ensureOk(
            'curl + sha256sum + sync',
            await runTimed({
              cmd: 'bash',
              args: ['-c', script, 'bash', ...kit.curlBase(mock)],
              env: { ...ENV, CURL, OUT: out, URL: `${mock.baseUrl}${contentPath()}` },
              cwd: RUN,
              workDir: RUN,
              timeoutMs: 300_000,
            }),
          ),
        );
        if (!readFileSync(`${out}.sha256`, 'utf8').startsWith(sha256)) throw new Error('sha256sum disagrees with the uploaded file');
        rmSync(`${out}.sha256`, { force: true });
        keep(runs.curlHashSync, cr);
      },
    ];
    for (let rep = 0; rep < SIZE.fileReps; rep++) {
      for (let k = 0; k < downloads.length; k++) await downloads[(rep + k) % downloads.length]();
      kit.sampleLoad();
      kit.log(`files: download round ${rep + 1}/${SIZE.fileReps}`);
    }
    rmSync(out, { force: true });
    rmSync(blob, { force: true });
    kit.details.files = { bytes, runs };
    const rate = (list) => bytes / MiB / (wallOf(list) / 1000);
    const peak = (list) => (list.some((r) => r.rssKiB === undefined) ? undefined : Math.max(...list.map((r) => r.rssKiB)));
    const vs = (row, mine, theirs, limit, label) => {
      const value = rate(mine) / rate(theirs);
      const fields = {
        ...row,
        measured: `${r2(value)}x (${rate(mine).toFixed(0)} vs ${rate(theirs).toFixed(0)} MiB/s)`,
        cpu: `${cpuText(cpuOf(mine))} vs ${cpuText(cpuOf(theirs))}`,
        value,
      };
      if (limit === undefined) kit.infoRow(fields);
      else
        kit.targetRow({
          ...fields,
          limit,
          kind: 'min',
          why: `${rate(mine).toFixed(0)} MiB/s against ${label}'s ${rate(theirs).toFixed(0)} MiB/s`,
        });
    };
    for (const [dir, cliRuns, rssRow] of [
      ['upload', runs.cliUp, planned['upload-rss']],
      ['download', runs.cliDown, planned['download-rss']],
    ]) {
      const p = peak(cliRuns);
      if (p === undefined) kit.notMeasured([rssRow], 'peak RSS could not be read');
      else
        kit.targetRow({
          ...rssRow,
          measured: mib(p),
          cpu: cpuText(cpuOf(cliRuns)),
          value: p / 1024,
          limit: TARGET.filesPeakMiB,
          kind: 'max',
          unit: ' MiB',
          why: `${mib(p)} at peak for a ${sizeText(SIZE)} ${dir}`,
        });
    }
    if (CURL) {
      vs(planned['upload-throughput'], runs.cliUp, runs.curlUp, TARGET.uploadThroughput, 'curl -F');
      vs(planned['download-throughput'], runs.cliDown, runs.curlHashSync, TARGET.downloadThroughput, 'curl + sha256sum + sync');
    } else
      kit.notMeasured(
        [planned['upload-throughput'], planned['download-throughput'], planned['download-curl']],
        'not measured (curl missing)',
      );
    vs(planned['download-node'], runs.cliDown, runs.nodeDown);
    if (CURL) vs(planned['download-curl'], runs.cliDown, runs.curlDown);
    const line = (label, list) => [
      label,
      sec(wallOf(list)),
      `${rate(list).toFixed(0)} MiB/s`,
      cpuText(cpuOf(list)),
      cpuText(mockCpuOf(list)),
      peak(list) === undefined ? '?' : mib(peak(list)),
      list.map((r) => sec(r.ms)).join(', '),
    ];
    kit.detail({
      about: `A ${sizeText(SIZE)} file of random bytes, ${SIZE.fileReps} run(s) each (downloads alternating), HTTPS to a mock without added latency. Wall time includes process start-up for every tool. Every upload's stored size and sha256 and every downloaded file's size and sha256 are checked.`,
      table: {
        header: ['transfer', 'median wall', 'throughput', 'CPU (median)', 'mock CPU (median)', 'peak RSS', 'runs'],
        rows: [
          line('`appraisal files upload PATH`', runs.cliUp),
          ...(CURL ? [line('`curl -F file=@PATH …/api/files`', runs.curlUp)] : []),
          line('`appraisal files download ID --out PATH`', runs.cliDown),
          line('plain Node: socket → file with sha256 and fsync (bench/lib/download-floor.mjs)', runs.nodeDown),
          ...(CURL
            ? [
                line('`curl -o PATH … && sha256sum PATH && sync PATH`', runs.curlHashSync),
                line('`curl -o PATH …/api/files/ID/content` alone', runs.curlDown),
              ]
            : []),
        ],
      },
    });
  },
};
