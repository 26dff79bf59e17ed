import type { LiveHealth } from '@reelhouse/contract';
import { useEffect, useState } from 'react';
import { bitrateText, lastDataText } from '../../lib/live-text';

const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** What the encoder sends, as the server last saw it; the age of the last data ticks every second. */
export function StreamHealth({ health, viewers }: { health: LiveHealth; viewers: number }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  const resolution = health.width && health.height ? `${health.width}×${health.height}` : null;
  const codecs = [health.videoCodec, health.audioCodec].filter(Boolean).join(' + ');
  const rows: [string, string][] = [
    ['Viewers', String(viewers)],
    ['Codecs', dash(codecs)],
    ['Resolution', dash(resolution)],
    ['Frame rate', health.frameRate ? `${Math.round(health.frameRate * 100) / 100} fps` : '—'],
    ['Bitrate', bitrateText(health.bitrate)],
  ];
  const stale = !health.lastDataAt || now.getTime() - new Date(health.lastDataAt).getTime() > 10_000;
  return (
    <section aria-labelledby="stream-health" className="flex flex-col gap-2">
      <h2 id="stream-health" className="flex items-center gap-2 text-base font-semibold">
        Stream health
        <span className={`text-xs font-normal ${stale ? 'text-neutral-500' : 'text-emerald-600 dark:text-emerald-400'}`} data-testid="last-data">
          {lastDataText(health.lastDataAt, now)}
        </span>
      </h2>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs text-neutral-500">{k}</dt>
            <dd className="font-medium tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
