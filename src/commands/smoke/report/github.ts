// GitHub Actions: `::error title=…::` annotations for failed checks (on stderr, so stdout stays the
// report) and a markdown summary appended to $GITHUB_STEP_SUMMARY. GitLab reads --junit instead.
import { appendFile } from 'node:fs/promises';
import type { Context } from '../../../core/context.js';
import type { CheckResult } from '../checks/check.js';
import { detailLines } from './details.js';
import type { RunFacts } from './render.js';

/** Workflow-command escaping: the message (data) and a property value. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function annotations(results: readonly CheckResult[]): string {
  return results
    .filter((result) => result.status === 'fail')
    .map((result) => {
      const body = [result.detail, ...(result.failure ? detailLines(result.failure, result.detail) : [])].join('\n');
      return `::error title=${escapeProperty(`smoke: ${result.name}`)}::${escapeData(body)}\n`;
    })
    .join('');
}

const cell = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|');
const ICONS: Readonly<Record<CheckResult['status'], string>> = { pass: '✅ pass', fail: '❌ FAIL', skip: '⏭️ skip' };

export function stepSummary(results: readonly CheckResult[], facts: RunFacts, summary: string): string {
  const lines = [
    `### appraisal smoke: ${facts.environment} (${cell(facts.baseUrl)})`,
    '',
    summary,
    '',
    '| check | result | time | detail |',
    '|---|---|---:|---|',
  ];
  for (const result of results) {
    const time = result.status === 'skip' ? '-' : `${Math.round(result.ms)} ms`;
    lines.push(`| ${cell(result.name)} | ${ICONS[result.status]} | ${time} | ${cell(result.detail)} |`);
  }
  const failed = results.filter((result) => result.status === 'fail' && result.failure?.curl);
  if (failed.length > 0) {
    lines.push('', '<details><summary>Reproduce the failures</summary>', '');
    for (const result of failed) lines.push(`**${cell(result.name)}**`, '', '```sh', result.failure!.curl!, '```', '');
    lines.push('</details>');
  }
  return `${lines.join('\n')}\n`;
}

/** Under GITHUB_ACTIONS=true: annotations on stderr, the summary appended to $GITHUB_STEP_SUMMARY. */
export async function reportToGitHub(ctx: Context, results: readonly CheckResult[], facts: RunFacts, summary: string): Promise<void> {
  if (ctx.env.GITHUB_ACTIONS !== 'true') return;
  const lines = annotations(results);
  if (lines) ctx.io.writeErr(lines);
  const file = ctx.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    await appendFile(file, stepSummary(results, facts, summary));
  } catch (error) {
    ctx.io.warn(`cannot append the step summary to $GITHUB_STEP_SUMMARY (${file}): ${(error as Error).message}`);
  }
}
