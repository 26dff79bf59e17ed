import type { Playlist } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListIcon } from '@/components/ui/icons';

/**
 * A playlist as a card: its first video's thumbnail (a gradient when it shows none), name and count.
 * `to` defaults to the playlist's page; a channel's cards play the playlist instead.
 */
export function PlaylistCard({ playlist, to, showVisibility = false }: { playlist: Playlist; to?: string; showVisibility?: boolean }) {
  const { t } = useTranslation('playlists');
  const badges: Record<Playlist['visibility'], string | null> = { public: null, unlisted: t('visibility.unlisted'), private: t('visibility.private') };
  const badge = showVisibility ? badges[playlist.visibility] : null;
  const count = t('videoCount', { count: playlist.videosCount });
  return (
    <Link
      to={to ?? `/playlist/${playlist._id}`}
      className="group flex flex-col overflow-hidden rounded-xl border border-neutral-200 bg-neutral-50 hover:border-neutral-400 dark:border-neutral-800 dark:bg-neutral-900 dark:hover:border-neutral-600"
      data-testid="playlist-card"
    >
      <div className="relative aspect-video">
        {playlist.thumbnail ? (
          <img src={playlist.thumbnail.url} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full w-full items-center justify-center bg-gradient-to-br from-rose-500/80 to-indigo-600/80 text-white">
            <ListIcon width={40} height={40} />
          </div>
        )}
        {playlist.thumbnail && (
          <span className="absolute end-2 bottom-2 flex items-center gap-1 rounded bg-black/80 px-1.5 py-0.5 text-xs font-medium text-white">
            <ListIcon width={14} height={14} /> {count}
          </span>
        )}
        {badge && <span className="absolute start-2 top-2 rounded bg-black/80 px-1.5 py-0.5 text-xs text-white">{badge}</span>}
      </div>
      <div className="p-3">
        <h3 className="truncate font-semibold group-hover:underline">{playlist.name}</h3>
        <p className="text-sm text-neutral-500">{count}</p>
      </div>
    </Link>
  );
}
