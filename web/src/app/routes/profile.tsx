import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChannelBanner, Tile } from '@/components/ui/channel-banner';
import { HistoryIcon, ListIcon, ThumbUpIcon, UploadIcon, VideoIcon } from '@/components/ui/icons';
import { useMySubscriberCount } from '@/features/subscriptions/api/subscriptions.api';
import { VideoFeed } from '@/features/videos/components/video-feed';
import { useAuth } from '@/lib/auth';

export default function ProfilePage() {
  const { t } = useTranslation('app');
  const { user } = useAuth();
  const count = useMySubscriberCount(Boolean(user));
  if (!user) return null;
  const base = `/${user.username}`;
  return (
    <div className="mx-auto max-w-[1500px]">
      <ChannelBanner
        coverUrl={user.coverImage.url}
        avatarUrl={user.avatar.url}
        fullName={user.fullName}
        username={user.username}
        subscribers={count.data}
        actions={
          <Link
            to={`${base}/edit-profile`}
            className="inline-flex h-10 items-center rounded-full bg-neutral-100 px-4 text-sm font-medium hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700"
          >
            {t('editProfile.title')}
          </Link>
        }
      />
      <nav aria-label={t('profile.library')} className="mb-8 grid grid-cols-2 gap-3 md:grid-cols-5">
        <Tile to={`${base}/watch-history`} label={t('profile.watchHistory')} icon={<HistoryIcon />} />
        <Tile to={`${base}/liked-videos`} label={t('profile.likedVideos')} icon={<ThumbUpIcon />} />
        <Tile to={`${base}/playlists`} label={t('playlists.title')} icon={<ListIcon />} />
        <Tile to={`${base}/add-video`} label={t('addVideo.title')} icon={<UploadIcon />} />
        <Tile to={`${base}/studio`} label={t('studio.title')} icon={<VideoIcon />} />
      </nav>
      <h2 className="mb-4 text-lg font-bold">{t('profile.yourVideos')}</h2>
      <VideoFeed params={{ userId: user._id }} />
    </div>
  );
}
