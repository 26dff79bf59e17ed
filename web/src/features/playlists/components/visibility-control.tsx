import type { PlaylistVisibility } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { useSetPlaylistVisibility } from '../api/playlists.api';

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
  const { t } = useTranslation('playlists');
  const options: { value: PlaylistVisibility; label: string; hint: string; done: string }[] = [
    { value: 'private', label: t('visibility.private'), hint: t('visibility.privateHint'), done: t('visibility.nowPrivate') },
    { value: 'unlisted', label: t('visibility.unlisted'), hint: t('visibility.unlistedHint'), done: t('visibility.nowUnlisted') },
    { value: 'public', label: t('visibility.public'), hint: t('visibility.publicHint'), done: t('visibility.nowPublic') },
  ];
  const change = useSetPlaylistVisibility(playlistId);
  const current = change.isPending && change.variables ? change.variables : visibility;
  return (
    <div role="radiogroup" aria-label={t('visibility.label')} className="inline-flex rounded-full border border-neutral-300 p-0.5 dark:border-neutral-700">
      {options.map((o) => (
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
              notify(o.done, 'success');
            } catch (err) {
              notify(errorMessage(err, t('visibility.changeFailed')), 'error');
            }
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
