import type { VideoDetail } from '@reelhouse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { PlaylistAddIcon } from '@/components/ui/icons';
import { Avatar, Button, EmptyState, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useRelated } from '@/features/discovery/api/discovery.api';
import { AutoplayOverlay } from '@/features/discovery/components/autoplay-overlay';
import { ResumeNotice, useResumeStart } from '@/features/discovery/components/resume-notice';
import { UpNext } from '@/features/discovery/components/up-next';
import { useAutoplaySetting } from '@/features/discovery/lib/autoplay';
import { playerMedia } from '@/features/player/media-props';
import { usePositionTracking } from '@/features/discovery/lib/use-position-tracking';
import { TranscriptPanel } from '@/features/captions/components/transcript-panel';
import { CommentsSection } from '@/features/comments/components/comments-section';
import { RemoteVideoOrigin } from '@/features/federation/components/remote-origin';
import { LikeButton } from '@/features/likes/components/like-button';
import { usePlaylistReady } from '@/features/live/api/playlist-ready';
import { ChatPanel } from '@/features/live/components/chat-panel';
import { LiveBadge } from '@/features/live/components/live-badge';
import { watchingText } from '@/features/live/lib/live-text';
import { playlistPosition, usePlaylist } from '@/features/playlists/api/playlists.api';
import { AddToPlaylistDialog } from '@/features/playlists/components/add-to-playlist-dialog';
import { PlaylistPanel } from '@/features/playlists/components/playlist-panel';
import { SubscribeButton } from '@/features/subscriptions/components/subscribe-button';
import { recordWatch } from '@/features/users/api/users.api';
import { incrementViews, useVideo, videoKeys } from '@/features/videos/api/videos.api';
import { DescriptionBox } from '@/features/videos/components/description-box';
import { ProcessingStatus } from '@/features/videos/components/processing-status';
import { ChapterList } from '@/features/player/chapter-list';
import { TimestampText } from '@/features/player/timestamp-text';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatSubscribers } from '@/lib/format';
import { VideoPlayer } from './lazy-player';
import { liveStageFor } from './live-stage';
import { OwnerTools } from './owner-tools';
import { TakedownNotice } from './takedown-notice';
import { EmbedButton, ShareButton } from './share-button';
import { parseStartTime } from './start-time';

export default function VideoPage() {
  const { t } = useTranslation('app');
  const { videoId = '' } = useParams();
  const { user, isAuthenticated, appLoading } = useAuth();
  const toast = useToast();
  const q = useVideo(videoId);
  const video = q.data;
  // Watching a playlist in order: ?list= names it, and the next video starts when one ends.
  const listId = useSearchParams()[0].get('list') ?? '';
  const list = usePlaylist(listId, { enabled: Boolean(listId) });
  const nextInList = list.data ? playlistPosition(list.data, videoId).next : null;

  const [theater, setTheater] = useState(false);
  const [playlistOpen, setPlaylistOpen] = useState(false);
  const [subDelta, setSubDelta] = useState(0);
  const [viewDelta, setViewDelta] = useState(0);
  // A live's viewer count as the chat stream reports it (the video's own until the first report).
  const [viewers, setViewers] = useState<number | null>(null);
  const recorded = useRef<string | null>(null);
  const [searchParams] = useSearchParams();
  // A link to a moment (?t=) wins over where the viewer left off.
  const linkStart = parseStartTime(searchParams.get('t'));

  const notify = useCallback((message: string, kind: 'error' | 'success' | 'info') => toast.show(message, kind), [toast]);

  // Another video starts from its own counts (set during render, so no frame shows the last video's changes).
  const [deltasFor, setDeltasFor] = useState(videoId);
  if (deltasFor !== videoId) {
    setDeltasFor(videoId);
    setSubDelta(0);
    setViewDelta(0);
    setViewers(null);
  }

  // Opening a video page records it in the signed-in user's watch history, once per page view.
  useEffect(() => {
    if (appLoading || !isAuthenticated || !video || recorded.current === video._id) return;
    recorded.current = video._id;
    recordWatch(video._id).catch(() => {});
  }, [appLoading, isAuthenticated, video]);

  const tracking = usePositionTracking(videoId, isAuthenticated);
  const navigate = useNavigate();
  const location = useLocation();
  const related = useRelated(videoId);
  const upNext = related.data ?? [];
  const [autoplay, setAutoplay] = useAutoplaySetting();
  // Which video just ended (the overlay belongs to it, so a new video starts without one).
  const [endedId, setEndedId] = useState<string | null>(null);
  const next = upNext[0];
  // In a playlist, the playlist's next video follows the one that ended, before any up next.
  const onEnded = useCallback(() => {
    tracking.onEnded();
    if (nextInList) navigate(nextInList, { state: { autoplay: true } });
    else setEndedId(videoId);
  }, [tracking, videoId, nextInList, navigate]);
  const playNext = useCallback(() => {
    if (next) navigate(`/video/${next._id}`, { state: { autoplay: true } });
  }, [navigate, next]);
  const cameByAutoplay = (location.state as { autoplay?: boolean } | null)?.autoplay === true;
  const resume = useResumeStart(
    { _id: videoId, duration: video?.duration ?? 0, watchPosition: video?.watchPosition ?? null },
    isAuthenticated,
    !appLoading && Boolean(video),
  );

  const onViewCounted = useCallback(() => {
    incrementViews(videoId)
      .then(() => setViewDelta((d) => d + 1))
      .catch(() => {});
  }, [videoId]);

  // The live went on air or ended: the video now has its live playlist, its replay, or neither. Once
  // it ended, the page stops playing the broadcast at once, before the video is asked for again.
  const { refetch } = q;
  const queryClient = useQueryClient();
  const onLiveStatus = useCallback(
    (status: 'upcoming' | 'live' | 'ended') => {
      if (status === 'ended') {
        queryClient.setQueryData<VideoDetail>(videoKeys.detail(videoId), (old) => (old?.live ? { ...old, hls: null, live: { ...old.live, status } } : old));
      }
      void refetch();
    },
    [refetch, queryClient, videoId],
  );
  const live = video?.live;
  const liveSrc = live?.status === 'live' ? (video?.hls?.url ?? null) : null;
  const onAir = usePlaylistReady(liveSrc);

  if (q.isPending) return <Spinner label={t('videoPage.loading')} />;
  // An ended live whose replay is still being prepared is not found for anyone but its owner for a
  // while: the page keeps what it knew (the live has ended, its chat) rather than losing it.
  if (!video || (q.isError && !video.live)) return <EmptyState>{errorMessage(q.error, t('videoPage.notFound'))}</EmptyState>;

  const isOwner = user?._id === video.owner._id;

  const liveStage = live ? liveStageFor(video, { onAir, theater, onTheaterChange: setTheater, onViewCounted }) : null;

  const player =
    liveStage ??
    (video.status === 'ready' ? (
      <Suspense fallback={<div className="aspect-video w-full animate-pulse rounded-xl bg-neutral-900" />}>
        <div className="relative">
          <VideoPlayer
            key={video._id}
            {...playerMedia(video)}
            theater={theater}
            onTheaterChange={setTheater}
            onViewCounted={onViewCounted}
            startAt={linkStart ?? resume.at}
            onTimeChange={tracking.onTimeChange}
            onPause={tracking.onPause}
            onEnded={onEnded}
            autoPlay={cameByAutoplay}
          />
          {endedId === video._id && autoplay && next && <AutoplayOverlay key={video._id} next={next} onCancel={() => setEndedId(null)} onPlay={playNext} />}
        </div>
      </Suspense>
    ) : (
      <ProcessingStatus video={video} />
    ));
  const chat = live ? (
    <ChatPanel
      key={video._id}
      videoId={video._id}
      channelOwnerId={video.owner._id}
      viewer={user ? { _id: user._id, role: user.role } : null}
      stream={live.status !== 'ended'}
      notify={notify}
      onViewers={setViewers}
      onStatus={onLiveStatus}
      className="absolute inset-0"
    />
  ) : null;

  return (
    <div className={cn('mx-auto', theater ? 'max-w-none' : 'max-w-[1700px]')}>
      {theater && <div className="-mx-4 mb-4 bg-black sm:-mx-6">{player}</div>}
      {/* A grid so that a live's chat sits beside the player on a desktop and right under it on a phone. */}
      <div className="grid grid-cols-1 gap-x-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        {!theater && <div className="min-w-0 overflow-hidden rounded-xl bg-black xl:col-start-1 xl:row-start-1">{player}</div>}
        {chat && (
          // Beside the player the chat is as tall as the player; elsewhere it has its own height.
          <div className={cn('relative mt-3 h-[420px] xl:col-start-2 xl:row-start-1 xl:mt-0', theater ? 'xl:h-[560px]' : 'xl:h-auto')}>{chat}</div>
        )}
        <div className={cn('min-w-0 xl:col-start-1', theater ? 'xl:row-start-1' : 'xl:row-start-2')}>
          {linkStart === null && resume.at !== null && video.status === 'ready' && <ResumeNotice at={resume.at} onStartOver={resume.startOver} />}
          <h1 className="mt-3 break-words text-xl font-bold" data-testid="video-title">
            {video.title}
          </h1>
          {video.remote && video.url && <RemoteVideoOrigin url={video.url} />}
          {live?.status === 'live' && (
            <p className="mt-1 flex items-center gap-2 text-sm text-neutral-600 dark:text-neutral-400" data-testid="live-viewers">
              <LiveBadge size="sm" /> {watchingText(viewers ?? live.viewers)}
            </p>
          )}
          {!video.isPublished && <p className="mt-1 text-xs font-medium uppercase text-amber-600">{t('videoPage.unpublished')}</p>}
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
            <div className="flex min-w-0 items-center gap-3">
              <Link to={`/channel/${video.owner.username}`} aria-label={t('videoPage.channelLabel', { name: video.owner.fullName })}>
                <Avatar src={video.owner.avatar.url} alt="" size={40} />
              </Link>
              <div className="min-w-0">
                <Link to={`/channel/${video.owner.username}`} className="block truncate font-semibold hover:underline">
                  {video.owner.fullName || video.owner.username}
                </Link>
                <p className="text-xs text-neutral-600 dark:text-neutral-400" data-testid="owner-subscribers">
                  {formatSubscribers(video.owner.subscribersCount + subDelta)}
                </p>
              </div>
              {!isOwner && (
                <SubscribeButton
                  key={video._id}
                  channelId={video.owner._id}
                  isSubscribed={video.owner.isSubscribed}
                  signedIn={isAuthenticated}
                  notify={notify}
                  onChange={(_s, delta) => setSubDelta((d) => d + delta)}
                />
              )}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <LikeButton
                key={video._id}
                contentType="video"
                contentId={video._id}
                liked={video.isLiked}
                count={video.likesCount}
                signedIn={isAuthenticated}
                onSignedOut={() => toast.info(t('videoPage.loginToLike'))}
                onError={(m) => toast.error(m)}
              />
              <ShareButton />
              {video.visibility !== 'private' && <EmbedButton videoId={video._id} title={video.title} />}
              <Button onClick={() => (isAuthenticated ? setPlaylistOpen(true) : toast.info(t('videoPage.signInToSave')))}>
                <PlaylistAddIcon width={18} height={18} /> {t('videoPage.save')}
              </Button>
            </div>
          </div>
          <TakedownNotice video={video} isOwner={isOwner} />
          {isOwner && user && <OwnerTools video={video} ownerUsername={user.username} />}
          <TranscriptPanel key={video._id} captions={video.captions} />
          <DescriptionBox
            description={video.description}
            views={video.views + viewDelta}
            createdAt={video.createdAt}
            renderText={(text) => <TimestampText text={text} duration={video.duration} />}
          />
          <ChapterList chapters={video.chapters} storyboardUrl={video.storyboard?.url ?? null} />
          <CommentsSection
            videoId={video._id}
            videoOwnerId={video.owner._id}
            commentsCount={video.commentsCount}
            viewer={user}
            notify={notify}
            renderContent={(text) => <TimestampText text={text} duration={video.duration} />}
            renderActions={(c) => (
              <LikeButton
                size="sm"
                contentType="comment"
                contentId={c._id}
                liked={c.isLiked}
                count={c.likesCount}
                signedIn={isAuthenticated}
                onSignedOut={() => toast.info(t('videoPage.loginToLike'))}
                onError={(m) => toast.error(m)}
              />
            )}
          />
        </div>
        <div
          className={cn('mt-6 w-full xl:col-start-2 xl:mt-0', chat ? 'xl:row-start-2 xl:pt-4' : theater ? 'xl:row-start-1' : 'xl:row-span-2 xl:row-start-1')}
        >
          {list.data && <PlaylistPanel playlist={list.data} currentId={video._id} />}
          <UpNext videos={upNext} autoplay={autoplay} onAutoplayChange={setAutoplay} />
        </div>
      </div>
      {isAuthenticated && user && (
        <AddToPlaylistDialog open={playlistOpen} onClose={() => setPlaylistOpen(false)} videoId={video._id} userId={user._id} notify={notify} />
      )}
    </div>
  );
}
