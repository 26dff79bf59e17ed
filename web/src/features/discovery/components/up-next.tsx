import type { VideoSummary } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { CompactVideoCard } from '@/components/ui/video-card';
import { cn } from '@/lib/cn';

/** The column beside the player (below it on a phone): related videos, best first, under the autoplay switch. */
export function UpNext({ videos, autoplay, onAutoplayChange }: { videos: VideoSummary[]; autoplay: boolean; onAutoplayChange(on: boolean): void }) {
  const { t } = useTranslation('discovery');
  return (
    <aside className="w-full shrink-0 xl:w-[360px]" aria-label={t('upNext')}>
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="font-semibold">{t('upNext')}</h2>
        <label className="flex cursor-pointer items-center gap-2 text-sm text-neutral-600 dark:text-neutral-400">
          {t('autoplay.label')}
          <button
            type="button"
            role="switch"
            aria-checked={autoplay}
            aria-label={t('autoplay.label')}
            onClick={() => onAutoplayChange(!autoplay)}
            className={cn('relative h-5 w-9 rounded-full transition-colors', autoplay ? 'bg-rose-600' : 'bg-neutral-300 dark:bg-neutral-600')}
          >
            <span
              className={cn(
                'absolute start-0.5 top-0.5 h-4 w-4 rounded-full bg-white shadow transition-transform',
                autoplay && 'translate-x-4 rtl:-translate-x-4',
              )}
            />
          </button>
        </label>
      </div>
      {videos.length === 0 ? (
        <p className="text-sm text-neutral-500">{t('nothingElse')}</p>
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-1" data-testid="up-next-list">
          {videos.map((v) => (
            <CompactVideoCard key={v._id} video={v} />
          ))}
        </div>
      )}
    </aside>
  );
}
