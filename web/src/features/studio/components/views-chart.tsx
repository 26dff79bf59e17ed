import type { VideoStats } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '@/lib/format';

const WIDTH = 560;
const HEIGHT = 160;
const PAD = { top: 12, right: 8, bottom: 22, left: 32 };

/** A day of the statistics (YYYY-MM-DD, a UTC day) as the interface's language writes a date. */
function dayText(day: string | undefined): string {
  return day ? formatDate(`${day}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' }) : '';
}

/**
 * A small bar chart of views per day, drawn as SVG (no chart library: it is one series of bars). Time
 * runs left to right in every language, as charts are read.
 */
export function ViewsChart({ days }: { days: VideoStats['days'] }) {
  const { t } = useTranslation('studio');
  const max = Math.max(1, ...days.map((d) => d.views));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, days.length);
  const bar = Math.max(1, slot * 0.7);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const first = dayText(days[0]?.date);
  const last = dayText(days.at(-1)?.date);
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={t('chart.label', { first, last })}
      data-testid="views-chart"
      className="h-auto w-full text-rose-600 dark:text-rose-400"
    >
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="stroke-neutral-300 dark:stroke-neutral-700" />
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(max)} y2={y(max)} strokeDasharray="3 3" className="stroke-neutral-200 dark:stroke-neutral-800" />
      <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" className="fill-neutral-500 text-[10px]">
        {formatNumber(max)}
      </text>
      <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className="fill-neutral-500 text-[10px]">
        {formatNumber(0)}
      </text>
      {days.map((d, i) => (
        <rect
          key={d.date}
          x={PAD.left + i * slot + (slot - bar) / 2}
          y={y(d.views)}
          width={bar}
          height={Math.max(0, y(0) - y(d.views))}
          rx={1.5}
          fill="currentColor"
          data-views={d.views}
        >
          <title>{t('chart.dayViews', { date: dayText(d.date), count: d.views, formatted: formatNumber(d.views) })}</title>
        </rect>
      ))}
      <text x={PAD.left} y={HEIGHT - 6} className="fill-neutral-500 text-[10px]">
        {first}
      </text>
      <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="fill-neutral-500 text-[10px]">
        {last}
      </text>
    </svg>
  );
}
