import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';
import { countdownText } from '../lib/live-text';

/**
 * The player's place before a live is on air: the thumbnail, dimmed, with a countdown to the
 * scheduled start (ticking every second) or a note that the stream has not started.
 */
export function LiveCountdown({ scheduledStart, poster }: { scheduledStart: string | null; poster?: string }) {
  const { t } = useTranslation('live');
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!scheduledStart) return;
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, [scheduledStart]);
  return (
    <div className="relative flex aspect-video w-full items-center justify-center overflow-hidden bg-black text-white" data-testid="live-upcoming">
      {poster && <img src={poster} alt="" className="absolute inset-0 h-full w-full object-cover opacity-40" />}
      <div className="relative px-4 text-center">
        <p className="text-lg font-semibold sm:text-2xl" role="timer" aria-live="off">
          {scheduledStart ? countdownText(scheduledStart, now) : t('countdown.waiting')}
        </p>
        {scheduledStart && <p className="mt-1 text-sm text-neutral-300">{formatDate(scheduledStart, { dateStyle: 'full', timeStyle: 'short' })}</p>}
        <p className="mt-3 text-xs text-neutral-400">{t('countdown.autoStart')}</p>
      </div>
    </div>
  );
}

/** The player's place once a live ended without a replay to play. */
export function LiveOver() {
  const { t } = useTranslation('live');
  return (
    <div className="flex aspect-video w-full items-center justify-center bg-black px-4 text-center text-white" data-testid="live-over">
      <p className="text-lg font-semibold">{t('over')}</p>
    </div>
  );
}
