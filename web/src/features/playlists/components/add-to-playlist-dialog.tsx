import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useAddRemoveVideo, useUserPlaylists } from '../api/playlists.api';
import { CreatePlaylistForm } from './create-playlist-form';

interface Props {
  open: boolean;
  onClose: () => void;
  videoId: string;
  userId: string;
  notify: (message: string, kind: 'error' | 'success' | 'info') => void;
}

export function AddToPlaylistDialog({ open, onClose, videoId, userId, notify }: Props) {
  const { t } = useTranslation('playlists');
  const playlists = useUserPlaylists(open ? userId : undefined);
  const toggle = useAddRemoveVideo();
  // Checkbox states shown while the server is asked, so a click shows at once.
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const [creating, setCreating] = useState(false);

  async function onToggle(playlistId: string, add: boolean) {
    setPending((p) => ({ ...p, [playlistId]: add }));
    try {
      await toggle.mutateAsync({ videoId, playlistId, add });
      if (add) notify(t('videoAdded'), 'success');
      else notify(t('videoRemoved'), 'info');
    } catch (err) {
      notify(errorMessage(err, t('updateFailed')), 'error');
    } finally {
      setPending(({ [playlistId]: _done, ...rest }) => rest);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title={t('saveTo.title')}>
      {playlists.isPending ? (
        <Spinner label={t('saveTo.loading')} />
      ) : playlists.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {t('saveTo.loadFailed')}
        </p>
      ) : playlists.data.length === 0 ? (
        <p className="text-sm text-neutral-500">{t('saveTo.none')}</p>
      ) : (
        <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
          {playlists.data.map((p) => {
            const busy = p._id in pending;
            const checked = busy ? pending[p._id]! : p.videos.includes(videoId);
            return (
              <li key={p._id}>
                <label className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-2 hover:bg-neutral-100 dark:hover:bg-neutral-800">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-rose-600"
                    checked={checked}
                    disabled={busy}
                    onChange={() => void onToggle(p._id, !checked)}
                  />
                  <span className="flex-1 truncate text-sm">{p.name}</span>
                  <span className="text-xs text-neutral-500">{p.videosCount}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <div className="mt-4 border-t border-neutral-200 pt-4 dark:border-neutral-800">
        {creating ? (
          <CreatePlaylistForm
            compact
            onError={(m) => notify(m, 'error')}
            onCreated={() => {
              setCreating(false);
              notify(t('created'), 'success');
            }}
          />
        ) : (
          <button type="button" className="text-sm font-medium text-rose-600 hover:underline dark:text-rose-400" onClick={() => setCreating(true)}>
            {t('saveTo.createNew')}
          </button>
        )}
      </div>
    </Dialog>
  );
}
