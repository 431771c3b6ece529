// `appraisal version`: the version and what a bug report needs beside it (commit, build date, Node,
// platform, install kind). `appraisal --version --verbose` runs this too (main.ts). Local only:
// nothing checks for updates over the network.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import { buildInfo } from '../../core/build-info.js';
import { takesOptions } from '../../core/global-options.js';
import { versionReport } from './report.js';

export default function versionCommand(factory: Factory): Command {
  const command = new Command('version').description('Print the version, commit, build date, Node version, platform and install kind');
  takesOptions(command);
  examples(command, ['appraisal version', 'appraisal --version --verbose']);
  command.action(
    action(factory, async (ctx) => {
      ctx.io.stdout.write(versionReport(buildInfo(ctx.version)));
    }),
  );
  return command;
}
