import type { PlaylistDetail } from '@reelhouse/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { formatDuration } from '@/lib/format';
import { playlistPosition, watchInListPath } from '../api/playlists.api';

/**
 * The playlist being watched in order, beside the player: its name, owner, where the current video
 * sits, and every video as a link that keeps the playlist going.
 */
export function PlaylistPanel({ playlist, currentId }: { playlist: PlaylistDetail; currentId: string }) {
  const { t } = useTranslation('playlists');
  const { index, total } = playlistPosition(playlist, currentId);
  const current = useRef<HTMLLIElement>(null);
  // Keeps the playing entry in view inside the panel's own scroll area, not the page's.
  useEffect(() => {
    const item = current.current;
    const list = item?.parentElement;
    if (item && list) list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 3;
  }, [currentId]);
  return (
    <section
      aria-label={t('playlist')}
      className="mb-4 overflow-hidden rounded-xl border border-neutral-200 dark:border-neutral-800"
      data-testid="playlist-panel"
    >
      <header className="bg-neutral-100 px-4 py-3 dark:bg-neutral-900">
        <h2 className="flex items-center gap-2 font-semibold">
          <ListIcon width={18} height={18} className="shrink-0" />
          <span className="truncate">{playlist.name}</span>
        </h2>
        <p className="mt-0.5 text-xs text-neutral-600 dark:text-neutral-400">
          <Link to={`/channel/${playlist.ownerProfile.username}`} className="hover:underline">
            {playlist.ownerProfile.fullName || playlist.ownerProfile.username}
          </Link>{' '}
          ·{' '}
          <span data-testid="playlist-position">
            {index >= 0 ? index + 1 : '–'} / {total}
          </span>
        </p>
      </header>
      {total === 0 ? (
        <p className="px-4 py-3 text-sm text-neutral-500">{t('empty')}</p>
      ) : (
        <ol className="max-h-[420px] overflow-y-auto py-1">
          {playlist.videos.map((v, i) => {
            const isCurrent = v._id === currentId;
            return (
              <li key={v._id} ref={isCurrent ? current : undefined}>
                <Link
                  to={watchInListPath(v._id, playlist._id)}
                  aria-current={isCurrent ? 'true' : undefined}
                  className={cn(
                    'flex items-center gap-2 px-2 py-1.5 hover:bg-neutral-100 dark:hover:bg-neutral-800',
                    isCurrent && 'bg-rose-50 dark:bg-rose-950/40',
                  )}
                >
                  <span className="w-5 shrink-0 text-center text-xs text-neutral-500">{isCurrent ? '▶' : i + 1}</span>
                  <span className="relative block aspect-video w-24 shrink-0 overflow-hidden rounded bg-neutral-200 dark:bg-neutral-800">
                    <img src={v.thumbnail.url} alt="" loading="lazy" className="h-full w-full object-cover" />
                    <span className="absolute end-0.5 bottom-0.5 rounded bg-black/80 px-1 text-[10px] text-white">{formatDuration(v.duration)}</span>
                  </span>
                  <span className="min-w-0">
                    <span className={cn('line-clamp-2 text-sm', isCurrent && 'font-semibold')}>{v.title}</span>
                    <span className="block truncate text-xs text-neutral-500">{v.owner.fullName || v.owner.username}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
