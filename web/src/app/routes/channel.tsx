import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ChannelBanner, Tile } from '@/components/ui/channel-banner';
import { ListIcon, VideoIcon } from '@/components/ui/icons';
import { EmptyState, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useChannel } from '@/features/channels/api/channels.api';
import { RemoteChannelOrigin } from '@/features/federation/components/remote-origin';
import { VideoFeed } from '@/features/videos/components/video-feed';
import { SubscribeButton } from '@/features/subscriptions/components/subscribe-button';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';

export default function ChannelPage() {
  const { t } = useTranslation('app');
  const { channelName = '' } = useParams();
  const q = useChannel(channelName);
  const { user, isAuthenticated } = useAuth();
  const toast = useToast();
  const [delta, setDelta] = useState(0);
  // A fresh answer already counts the viewer's own (un)subscription: the local change starts again from zero,
  // set during render so that no frame counts it twice.
  const [deltaFor, setDeltaFor] = useState(q.data);
  if (deltaFor !== q.data) {
    setDeltaFor(q.data);
    setDelta(0);
  }

  if (q.isPending) return <Spinner />;
  if (q.isError) return <EmptyState>{errorMessage(q.error, t('channel.notFound'))}</EmptyState>;
  const c = q.data;
  const own = user?._id === c._id;
  return (
    <div className="mx-auto max-w-[1500px]">
      <ChannelBanner
        coverUrl={c.coverImage.url}
        avatarUrl={c.avatar.url}
        fullName={c.fullName}
        username={c.username}
        subscribers={c.subscribersCount + delta}
        note={c.remote && c.url ? <RemoteChannelOrigin url={c.url} /> : undefined}
        extra={
          <>
            {' '}
            <span aria-hidden="true">•</span> {t('channel.videoCount', { count: c.videosCount })}
          </>
        }
        actions={
          own ? undefined : (
            <SubscribeButton
              channelId={c._id}
              isSubscribed={c.isSubscribed}
              signedIn={isAuthenticated}
              notify={(m, k) => toast.show(m, k)}
              onChange={(_s, d) => setDelta((x) => x + d)}
            />
          )
        }
      />
      <nav aria-label={t('channel.navLabel')} className="grid grid-cols-2 gap-3 md:max-w-xl">
        <Tile to={`/channel/${c.username}/videos`} label={t('channel.videos')} icon={<VideoIcon />} />
        <Tile to={`/channel/${c.username}/playlists`} label={t('channel.playlists')} icon={<ListIcon />} />
      </nav>
      <h2 className="mb-4 mt-8 text-lg font-bold">{t('channel.latestVideos')}</h2>
      <VideoFeed params={{ userId: c._id }} />
    </div>
  );
}
