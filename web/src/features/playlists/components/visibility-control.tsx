import type { PlaylistVisibility } from '@reelhouse/contract';
import { errorMessage } from '@/lib/api-client';
import { useSetPlaylistVisibility } from '../api/playlists.api';

const OPTIONS: { value: PlaylistVisibility; label: string; hint: string }[] = [
  { value: 'private', label: 'Private', hint: 'Only you' },
  { value: 'unlisted', label: 'Unlisted', hint: 'Anyone with the link' },
  { value: 'public', label: 'Public', hint: 'On your channel for everyone' },
];

/** Who may see a playlist, as three buttons of one group; the owner's playlist page shows it. */
export function VisibilityControl({
  playlistId,
  visibility,
  notify,
}: {
  playlistId: string;
  visibility: PlaylistVisibility;
  notify: (message: string, kind: 'error' | 'success' | 'info') => void;
}) {
  const change = useSetPlaylistVisibility(playlistId);
  const current = change.isPending && change.variables ? change.variables : visibility;
  return (
    <div role="radiogroup" aria-label="Visibility" className="inline-flex rounded-full border border-neutral-300 p-0.5 dark:border-neutral-700">
      {OPTIONS.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={current === o.value}
          title={o.hint}
          disabled={change.isPending}
          className={
            current === o.value
              ? 'h-9 rounded-full bg-neutral-900 px-3 text-sm font-medium text-white dark:bg-white dark:text-neutral-900'
              : 'h-9 rounded-full px-3 text-sm text-neutral-700 hover:bg-neutral-200 dark:text-neutral-300 dark:hover:bg-neutral-800'
          }
          onClick={async () => {
            if (o.value === visibility) return;
            try {
              await change.mutateAsync(o.value);
              notify(`Playlist is now ${o.label.toLowerCase()}`, 'success');
            } catch (err) {
              notify(errorMessage(err, 'Failed to change visibility'), 'error');
            }
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
