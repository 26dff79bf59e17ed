import { useParams } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { PlaylistView } from '@/features/playlists/components/playlist-view';
import { useAuth } from '@/lib/auth';

export default function PlaylistPage() {
  const { playlistId = '' } = useParams();
  const { user } = useAuth();
  const toast = useToast();
  return (
    <div className="mx-auto max-w-[1500px]">
      <PlaylistView playlistId={playlistId} afterDeletePath={user ? `/${user.username}/playlists` : '/'} notify={(m, k) => toast.show(m, k)} />
    </div>
  );
}
