import { Link, useParams } from 'react-router';
import { EmptyState, PageTitle } from '@/components/ui/primitives';

export default function ChannelPlaylistsPage() {
  const { channelName = '' } = useParams();
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>
        <Link to={`/channel/${channelName}`} className="hover:underline">
          {channelName}
        </Link>{' '}
        <span className="font-normal text-neutral-500">· Playlists</span>
      </PageTitle>
      <EmptyState>Public playlists are coming soon.</EmptyState>
    </div>
  );
}
