import type { Playlist } from '@reelhouse/contract';
import { Link } from 'react-router';
import { ListIcon } from '@/components/ui/icons';

export function PlaylistCard({ playlist }: { playlist: Playlist }) {
  return (
    <Link
      to={`/playlist/${playlist._id}`}
      className="group flex flex-col overflow-hidden rounded-xl border border-neutral-200 bg-neutral-50 hover:border-neutral-400 dark:border-neutral-800 dark:bg-neutral-900 dark:hover:border-neutral-600"
      data-testid="playlist-card"
    >
      <div className="flex aspect-video items-center justify-center bg-gradient-to-br from-rose-500/80 to-indigo-600/80 text-white">
        <ListIcon width={40} height={40} />
      </div>
      <div className="p-3">
        <h3 className="truncate font-semibold group-hover:underline">{playlist.name}</h3>
        <p className="text-sm text-neutral-500">
          {playlist.videosCount} {playlist.videosCount === 1 ? 'video' : 'videos'}
        </p>
      </div>
    </Link>
  );
}
