/** The "Latest run" section of docs/benchmarks.md, made from bench/results/latest.json. */

const START = '<!-- latest-run:start -->';
const END = '<!-- latest-run:end -->';

export function renderLatest(latest) {
  const m = latest.machine;
  const lines = [
    START,
    '## Latest run',
    '',
    `\`npm run bench${latest.mode === 'quick' ? ' -- --quick' : ''}\` on ${latest.date.slice(0, 10)}: ${m.cpus} x ${m.cpuModel}, ${m.memoryGiB} GiB,`,
    `${m.os}, Node ${m.node}, ${m.ffmpeg}. Load average ${m.loadAverageBefore.join(' / ')} before and`,
    `${m.loadAverageAfter.join(' / ')} after (1 / 5 / 15 minutes): figures from a busy machine are pessimistic; ratios`,
    'are against baselines measured in the same run. Written by `bench/run.mjs` from `bench/results/latest.json`.',
    '',
  ];
  for (const b of latest.benchmarks) {
    lines.push(`### ${b.benchmark}`, '', `\`${b.command}\`: ${b.seconds} s${b.exitCode === 0 ? '' : `, exited with ${b.exitCode}`}.`, '');
    if (b.figures.length) {
      lines.push('| Figure | Value | Baseline | Ratio | Target | Met |', '|---|---|---|---|---|---|');
      for (const f of b.figures) {
        lines.push(
          `| ${f.name} | ${f.value} ${f.unit} | ${f.baseline ?? ''} | ${f.ratio === undefined ? '' : `${f.ratio}x`} | ${f.target ?? ''} | ${f.pass === undefined ? '' : f.pass ? 'yes' : '**no**'} |`,
        );
      }
    } else if (b.output) {
      lines.push('```', b.output, '```');
    }
    lines.push('');
  }
  lines.push(END);
  return lines.join('\n');
}

/** Puts the section in place of the previous one, or after the page's title the first time. */
export function replaceLatestSection(doc, section) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start >= 0 && end > start) return doc.slice(0, start) + section + doc.slice(end + END.length);
  const titleEnd = doc.indexOf('\n') + 1;
  return `${doc.slice(0, titleEnd)}\n${section}\n${doc.slice(titleEnd)}`;
}
