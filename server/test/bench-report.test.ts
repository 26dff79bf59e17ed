import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the benchmark harness, without type declarations
import { renderLatest, replaceLatestSection } from '../../bench/lib/report.mjs';

/** The harness's report: docs/benchmarks.md's "Latest run" section made from latest.json. */
const latest = {
  date: '2026-11-23T15:00:00.000Z',
  mode: 'quick',
  machine: {
    cpus: 2,
    cpuModel: 'AMD EPYC',
    memoryGiB: 24,
    os: 'Linux 6',
    node: 'v20.20.2',
    ffmpeg: 'ffmpeg 5.1',
    loadAverageBefore: [1, 2, 3],
    loadAverageAfter: [4, 5, 6],
  },
  benchmarks: [
    {
      benchmark: 'lists (sqlite)',
      command: 'node bench/lists.mjs --quick',
      exitCode: 0,
      seconds: 90,
      figures: [
        { name: 'home feed, page 1: throughput', value: 900, unit: 'req/s', baseline: 3000, ratio: 0.3, target: '>= 0.5x', pass: false },
        { name: 'home feed, page 1: single request', value: 2.1, unit: 'ms' },
      ],
    },
    { benchmark: 'load', command: 'node bench/load.mjs', exitCode: 1, seconds: 70, figures: [], output: 'reelhouse: 243 req/s' },
  ],
};

describe('bench report', () => {
  it('tables every figure with its baseline, ratio, target and whether it was met', () => {
    const section = renderLatest(latest);
    expect(section).toContain('`npm run bench -- --quick` on 2026-11-23: 2 x AMD EPYC, 24 GiB');
    expect(section).toContain('| home feed, page 1: throughput | 900 req/s | 3000 | 0.3x | >= 0.5x | **no** |');
    expect(section).toContain('| home feed, page 1: single request | 2.1 ms |  |  |  |  |');
    expect(section).toContain('`node bench/load.mjs`: 70 s, exited with 1.');
    expect(section).toContain('reelhouse: 243 req/s');
  });

  it('replaces the previous section and keeps the rest of the page', () => {
    const first = replaceLatestSection('# Benchmarks\n\n## Media pipeline\ntext\n', renderLatest(latest));
    expect(first.startsWith('# Benchmarks\n\n<!-- latest-run:start -->')).toBe(true);
    expect(first).toContain('## Media pipeline\ntext');
    const second = replaceLatestSection(first, renderLatest({ ...latest, date: '2026-12-01T00:00:00.000Z' }));
    expect(second).toContain('on 2026-12-01');
    expect(second).not.toContain('on 2026-11-23');
    expect(second.match(/latest-run:start/g)).toHaveLength(1);
    expect(second).toContain('## Media pipeline\ntext');
  });
});
