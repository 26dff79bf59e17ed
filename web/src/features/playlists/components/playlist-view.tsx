import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button, EmptyState, Spinner } from '@/components/ui/primitives';
import { VideoCard, VideoGrid } from '@/components/ui/video-card';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { playAllPath, useAddRemoveVideo, useDeletePlaylist, usePlaylist } from '../api/playlists.api';
import { VisibilityControl } from './visibility-control';

export function PlaylistView({
  playlistId,
  afterDeletePath,
  notify,
}: {
  playlistId: string;
  afterDeletePath: string;
  notify: (message: string, kind: 'error' | 'success' | 'info') => void;
}) {
  const { t } = useTranslation('playlists');
  const q = usePlaylist(playlistId);
  const remove = useAddRemoveVideo();
  const del = useDeletePlaylist();
  const navigate = useNavigate();
  const { user } = useAuth();
  const [confirm, setConfirm] = useState(false);

  if (q.isPending) return <Spinner />;
  if (q.isError) return <EmptyState>{errorMessage(q.error, t('notFound'))}</EmptyState>;
  const p = q.data;
  // Shared playlists open for others too; only the owner changes them.
  const isOwner = user?._id === p.owner;
  const playAll = playAllPath(p);

  async function onDelete() {
    try {
      await del.mutateAsync(playlistId);
      notify(t('deleted'), 'success');
      navigate(afterDeletePath);
    } catch {
      notify(t('deleteFailed'), 'error');
    } finally {
      setConfirm(false);
    }
  }

  return (
    <div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4 rounded-2xl bg-gradient-to-br from-rose-500/15 to-indigo-500/15 p-6">
        <div>
          <p className="text-xs font-semibold uppercase tracking-wide text-neutral-500">{t('playlist')}</p>
          <h1 className="text-2xl font-bold">{p.name}</h1>
          <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{p.description}</p>
          <p className="mt-1 text-sm text-neutral-500">
            {isOwner ? '' : `${p.ownerProfile.fullName || p.ownerProfile.username} · `}
            {t('videoCount', { count: p.videos.length })}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {playAll && (
            <Link
              to={playAll}
              className="inline-flex h-10 items-center rounded-full bg-neutral-900 px-4 text-sm font-medium text-white hover:bg-neutral-700 dark:bg-white dark:text-neutral-900 dark:hover:bg-neutral-200"
            >
              {t('playAll')}
            </Link>
          )}
          {isOwner && <VisibilityControl playlistId={p._id} visibility={p.visibility} notify={notify} />}
          {isOwner && (
            <Button variant="danger" onClick={() => setConfirm(true)}>
              {t('deletePlaylist')}
            </Button>
          )}
        </div>
      </header>
      {p.videos.length === 0 ? (
        <EmptyState>{t('empty')}</EmptyState>
      ) : (
        <VideoGrid>
          {p.videos.map((v) => (
            <VideoCard
              key={v._id}
              video={v}
              actions={
                isOwner && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('removeVideoLabel', { title: v.title })}
                    onClick={async () => {
                      try {
                        await remove.mutateAsync({ videoId: v._id, playlistId, add: false });
                        notify(t('videoRemoved'), 'info');
                      } catch (err) {
                        notify(errorMessage(err, t('removeVideoFailed')), 'error');
                      }
                    }}
                  >
                    {t('removeVideo')}
                  </Button>
                )
              }
            />
          ))}
        </VideoGrid>
      )}
      <ConfirmDialog
        open={confirm}
        title={t('deleteDialog.title')}
        message={t('deleteDialog.message', { name: p.name })}
        confirmLabel={t('deleteDialog.confirm')}
        busy={del.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirm(false)}
      />
    </div>
  );
}
