// The text of `appraisal version` (and `--version --verbose`): one `name: value` line per fact, for
// pasting into a bug report. Kept apart from the verb so its declaration stays data.
import type { BuildInfo } from '../../core/build-info.js';

export function versionReport(info: BuildInfo): string {
  const rows: Array<[string, string]> = [
    ['version', info.version],
    ['commit', info.commit],
    ['built', info.buildDate],
    ['node', info.node],
    ['platform', `${info.platform}-${info.arch}`],
    ['install', info.install],
  ];
  return rows.map(([name, value]) => `${`${name}:`.padEnd(10)}${value}\n`).join('');
}
