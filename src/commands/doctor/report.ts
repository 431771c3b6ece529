// Doctor's report on a terminal (`-o table`, the default there): a list, as `flutter doctor` and
// `brew doctor` print theirs — each check on a line of its own with its status and the whole result
// (a table cut every result at its column width), and a finding's next step on the line below it.
// `-o json` and the other formats stay records (run-doctor.ts).
import { safeText } from '../../output/index.js';
import type { Item } from './finding.js';

const STATUS_WIDTH = '[warning]'.length;

/** The report as text, one line per item plus one per next step. */
export function doctorList(items: readonly Item[]): string {
  const lines: string[] = [];
  for (const item of items) {
    lines.push(`${`[${item.severity}]`.padEnd(STATUS_WIDTH)} ${safeText(item.check)}: ${safeText(item.result)}`);
    if (item.next !== undefined) lines.push(`${' '.repeat(STATUS_WIDTH)} next: ${safeText(item.next)}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
