import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, EmptyState, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useUserPlaylists } from '@/features/playlists/api/playlists.api';
import { CreatePlaylistForm } from '@/features/playlists/components/create-playlist-form';
import { PlaylistCard } from '@/features/playlists/components/playlist-card';
import { useAuth } from '@/lib/auth';

export default function MyPlaylistsPage() {
  const { t } = useTranslation('app');
  const { user } = useAuth();
  const toast = useToast();
  const q = useUserPlaylists(user?._id);
  const [creating, setCreating] = useState(false);
  return (
    <div className="mx-auto max-w-[1500px]">
      <div className="mb-6 flex items-center justify-between">
        <h1 className="text-xl font-bold">{t('playlists.title')}</h1>
        <Button variant="primary" size="sm" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
          {t('playlists.newPlaylist')}
        </Button>
      </div>
      {creating && (
        <div className="mb-8 rounded-xl border border-neutral-200 p-4 dark:border-neutral-800">
          <CreatePlaylistForm
            onError={(m) => toast.error(m)}
            onCreated={() => {
              setCreating(false);
              toast.success(t('playlists.created'));
            }}
          />
        </div>
      )}
      {q.isPending ? (
        <Spinner />
      ) : q.isError ? (
        <EmptyState>{t('playlists.loadFailed')}</EmptyState>
      ) : q.data.length === 0 ? (
        <EmptyState>{t('playlists.noneFound')}</EmptyState>
      ) : (
        <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4 2xl:grid-cols-5">
          {q.data.map((p) => (
            <PlaylistCard key={p._id} playlist={p} showVisibility />
          ))}
        </div>
      )}
    </div>
  );
}
