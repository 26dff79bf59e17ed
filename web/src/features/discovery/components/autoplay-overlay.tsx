import type { VideoSummary } from '@reelhouse/contract';
import { Trans, useTranslation } from 'react-i18next';
import { AUTOPLAY_COUNTDOWN_SECONDS, useCountdown } from '../lib/autoplay';

/** Over the finished player: "Up next in 5" with the next video, Cancel and Play now; opens it at 0. */
export function AutoplayOverlay({ next, onCancel, onPlay }: { next: VideoSummary; onCancel(): void; onPlay(): void }) {
  const { t } = useTranslation('discovery');
  const left = useCountdown(AUTOPLAY_COUNTDOWN_SECONDS, onPlay);
  return (
    <div
      className="absolute inset-0 z-10 flex items-center justify-center bg-black/80 p-4 text-white"
      role="dialog"
      aria-label={t('upNext')}
      data-testid="autoplay-overlay"
    >
      <div className="flex w-full max-w-md flex-col items-center gap-3 text-center">
        <p className="text-sm text-neutral-300" aria-live="polite">
          <Trans i18nKey="autoplay.upNextIn" t={t} values={{ seconds: left }} components={{ strong: <span className="font-semibold text-white" /> }} />
        </p>
        <img src={next.thumbnail.url} alt="" className="hidden aspect-video w-56 rounded-lg object-cover sm:block" />
        <p className="line-clamp-2 font-semibold">{next.title}</p>
        <p className="text-xs text-neutral-300">{next.owner.fullName || next.owner.username}</p>
        <div className="flex gap-3">
          <button type="button" onClick={onCancel} className="rounded-full bg-white/15 px-4 py-1.5 text-sm font-medium hover:bg-white/25">
            {t('autoplay.cancel')}
          </button>
          <button type="button" onClick={onPlay} className="rounded-full bg-white px-4 py-1.5 text-sm font-medium text-neutral-900 hover:bg-neutral-200">
            {t('autoplay.playNow')}
          </button>
        </div>
      </div>
    </div>
  );
}
