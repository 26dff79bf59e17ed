import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState, PageTitle, Spinner } from '@/components/ui/primitives';
import { useChannel } from '@/features/channels/api/channels.api';
import { playAllPath, publicPlaylists, useUserPlaylists } from '@/features/playlists/api/playlists.api';
import { PlaylistCard } from '@/features/playlists/components/playlist-card';
import { errorMessage } from '@/lib/api-client';

/** A channel's public playlists, for everyone; a card plays its playlist from the first video. */
export default function ChannelPlaylistsPage() {
  const { t } = useTranslation('app');
  const { channelName = '' } = useParams();
  const channel = useChannel(channelName);
  const lists = useUserPlaylists(channel.data?._id);
  const shown = lists.data ? publicPlaylists(lists.data) : [];
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>
        <Link to={`/channel/${channelName}`} className="hover:underline">
          {channel.data?.fullName ?? channelName}
        </Link>{' '}
        <span className="font-normal text-neutral-500">{t('channel.playlistsHeading')}</span>
      </PageTitle>
      {channel.isError ? (
        <EmptyState>{errorMessage(channel.error, t('channel.notFound'))}</EmptyState>
      ) : channel.isPending || lists.isPending ? (
        <Spinner label={t('channel.loadingPlaylists')} />
      ) : lists.isError ? (
        <EmptyState>{t('playlists.loadFailed')}</EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState>{t('channel.noPublicPlaylists')}</EmptyState>
      ) : (
        <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4 2xl:grid-cols-5" data-testid="channel-playlists">
          {shown.map((p) => (
            <PlaylistCard key={p._id} playlist={p} to={playAllPath(p) ?? undefined} />
          ))}
        </div>
      )}
    </div>
  );
}
