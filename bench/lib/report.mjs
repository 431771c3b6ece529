// Turns the measured rows and details into bench/results.md (and the table printed at the end).

/** Row states: a target that holds or not, a reference figure without a target, or no figure. */
export function holdsText(row) {
  if (row.status === 'failed') return `**FAILED**`;
  if (row.status === 'not-measured') return 'not measured';
  if (row.status === 'info') return '—';
  return row.holds ? 'yes' : '**no**';
}

function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The load average a row was measured under, flagged when other work shared the cores. */
export function loadText(row, busyAbove = 1) {
  if (row.load === undefined) return '';
  return row.load > busyAbove ? `${row.load.toFixed(2)} ⚠` : row.load.toFixed(2);
}

export function tableMarkdown(rows, busyAbove = 1) {
  const lines = ['| benchmark | measured (wall) | CPU (user+sys) | target | holds | load |', '|---|---|---|---|---|---|'];
  for (const row of rows) {
    const measured = row.status === 'failed' || row.status === 'not-measured' ? row.reason : row.measured;
    lines.push(
      `| ${cell(row.benchmark)} | ${cell(measured)} | ${cell(row.cpu ?? '')} | ${cell(row.target)} | ${holdsText(row)} | ${loadText(row, busyAbove)} |`,
    );
  }
  return lines.join('\n');
}

/** A plain-text table for the terminal. */
export function tableText(rows) {
  const data = rows.map((row) => [
    row.benchmark,
    row.status === 'failed' || row.status === 'not-measured' ? row.reason : row.measured,
    row.cpu ?? '',
    row.target,
    holdsText(row).replace(/\*/g, ''),
    loadText(row),
  ]);
  const header = ['benchmark', 'measured (wall)', 'CPU', 'target', 'holds', 'load'];
  const widths = header.map((h, i) => Math.min(90, Math.max(h.length, ...data.map((r) => String(r[i]).length))));
  const fmt = (r) =>
    r
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...data.map(fmt)].join('\n');
}

export function misses(rows) {
  return rows.filter((row) => row.status === 'measured' && !row.holds);
}

export function resultsMarkdown(result) {
  const m = result.machine;
  const out = [];
  out.push('# Benchmark results', '');
  out.push(
    `Written by \`npm run bench\` (bench/run.mjs${result.quick ? ' --quick' : ''}) on ${result.date}` +
      (result.commit ? `, commit ${result.commit}${result.dirty ? ' with uncommitted changes' : ''}` : '') +
      `. Every ratio compares figures measured in this same run on this same machine.`,
    '',
  );
  out.push('| | |', '|---|---|');
  out.push(`| machine | ${cell(m.cpu)}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.os} |`);
  out.push(
    `| Node | ${result.node}${result.nodeArgs?.length ? ` — the CLI ran as \`node ${result.nodeArgs.join(' ')} bin/appraisal.js\` (an experiment)` : ''} |`,
  );
  if (result.cli) out.push(`| CLI under test | ${result.cli} (an experiment, not this checkout's build) |`);
  out.push(`| curl | ${result.curl ?? 'not installed'} |`);
  out.push(`| peak RSS from | ${cell(result.rssMethod)} |`);
  out.push(`| bench run time | ${result.durationText} |`);
  const busyAbove = result.load?.busyAbove ?? 1;
  const busyRows = result.rows.filter((row) => row.load !== undefined && row.load > busyAbove);
  if (result.load) {
    const busy =
      busyRows.length > 0
        ? ` — ${busyRows.length} figure(s) were measured above ${busyAbove} (⚠ in the table): other work shared the cores, so wall times are noisier; CPU times much less so`
        : '';
    out.push(`| load average (1 min) | ${result.load.start} at the start, ${result.load.end} at the end${busy} |`);
  }
  out.push('');
  out.push(tableMarkdown(result.rows, busyAbove), '');
  const missed = misses(result.rows);
  const failed = result.rows.filter((row) => row.status === 'failed' || row.status === 'not-measured');
  if (missed.length > 0 || failed.length > 0) {
    out.push('## Targets out of reach', '');
    for (const row of missed) out.push(`- **${row.benchmark}**: ${row.gap}${row.why ? ` — ${row.why}` : ''}`);
    for (const row of failed) out.push(`- **${row.benchmark}**: ${row.status === 'failed' ? 'failed' : 'not measured'}: ${row.reason}`);
    out.push('');
  }
  out.push('## Details', '');
  for (const section of result.sections) {
    out.push(`### ${section.title}`, '');
    if (section.about) out.push(section.about, '');
    if (section.table) {
      out.push(`| ${section.table.header.join(' | ')} |`, `|${section.table.header.map(() => '---').join('|')}|`);
      for (const r of section.table.rows) out.push(`| ${r.map(cell).join(' | ')} |`);
      out.push('');
    }
    for (const note of section.notes ?? []) out.push(`- ${note}`);
    if (section.notes?.length) out.push('');
  }
  return out.join('\n');
}
