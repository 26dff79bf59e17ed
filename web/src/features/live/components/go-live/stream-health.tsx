import type { LiveHealth } from '@reelhouse/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n/i18n';
import { formatNumber } from '@/lib/format';
import { bitrateText, lastDataText } from '../../lib/live-text';

const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** What the encoder sends, as the server last saw it; the age of the last data ticks every second. */
export function StreamHealth({ health, viewers }: { health: LiveHealth; viewers: number }) {
  const { t } = useTranslation('live');
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  const resolution = health.width && health.height ? `${health.width}×${health.height}` : null;
  const codecs = [health.videoCodec, health.audioCodec].filter(Boolean).join(' + ');
  const rows: [string, string][] = [
    [t('health.viewers'), formatNumber(viewers)],
    [t('health.codecs'), dash(codecs)],
    [t('health.resolution'), dash(resolution)],
    [t('health.frameRate'), health.frameRate ? `${new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 2 }).format(health.frameRate)} fps` : '—'],
    [t('health.bitrate'), bitrateText(health.bitrate)],
  ];
  const stale = !health.lastDataAt || now.getTime() - new Date(health.lastDataAt).getTime() > 10_000;
  return (
    <section aria-labelledby="stream-health" className="flex flex-col gap-2">
      <h2 id="stream-health" className="flex items-center gap-2 text-base font-semibold">
        {t('health.title')}
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
