import type { StudioVideo } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { cn } from '@/lib/cn';
import { useMyLives } from '../../api/live.api';

/** The user's lives to pick one from; links keep the choice in the address. */
export function MyLives({ selected, hrefFor }: { selected: string | null; hrefFor: (videoId: string) => string }) {
  const { t } = useTranslation('live');
  const lives = useMyLives();
  if (lives.isPending) return <Spinner label={t('myLives.loading')} />;
  const list: StudioVideo[] = lives.data ?? [];
  if (list.length === 0) return <p className="text-sm text-neutral-500">{t('myLives.empty')}</p>;
  return (
    <ul className="flex flex-col gap-1" aria-label={t('myLives.label')}>
      {list.map((v) => (
        <li key={v._id}>
          <Link
            to={hrefFor(v._id)}
            aria-current={selected === v._id ? 'page' : undefined}
            className={cn(
              'flex items-center justify-between gap-3 rounded-lg px-3 py-2 text-sm',
              selected === v._id ? 'bg-neutral-200 dark:bg-neutral-800' : 'hover:bg-neutral-100 dark:hover:bg-neutral-900',
            )}
          >
            <span className="truncate font-medium">{v.title}</span>
            <LiveStatusPill status={v.live?.status ?? 'ended'} />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Upcoming / Live / Ended, as the studio lists lives. */
export function LiveStatusPill({ status }: { status: 'upcoming' | 'live' | 'ended' }) {
  const { t } = useTranslation('live');
  const labels = { upcoming: t('status.upcoming'), live: t('status.live'), ended: t('status.ended') };
  return (
    <span
      className={cn(
        'shrink-0 rounded px-1.5 py-0.5 text-xs font-semibold',
        status === 'live'
          ? 'bg-red-600 text-white'
          : status === 'upcoming'
            ? 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200'
            : 'bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
      )}
    >
      {labels[status]}
    </span>
  );
}
