// `appraisal version`: the version and what a bug report needs beside it (commit, build date, Node,
// platform, install kind). `appraisal --version --verbose` runs this too (main.ts). Local only:
// nothing checks for updates over the network. A one-verb noun: its summary is the registry's.
import { buildInfo } from '../../core/build-info.js';
import { defineNounCommand } from '../../core/verb.js';
import { versionReport } from './report.js';

export default defineNounCommand({
  takes: [],
  calls: 'none',
  examples: ['appraisal version', 'appraisal --version --verbose'],
  async run(ctx) {
    ctx.io.stdout.write(versionReport(buildInfo(ctx.version)));
  },
});
