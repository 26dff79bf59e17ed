import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EditIcon, PlaylistAddIcon, ShareIcon, TrashIcon } from '@/components/ui/icons';
import { Avatar, Button, EmptyState, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { CommentsSection } from '@/features/comments/components/comments-section';
import { LikeButton } from '@/features/likes/components/like-button';
import { AddToPlaylistDialog } from '@/features/playlists/components/add-to-playlist-dialog';
import { SubscribeButton } from '@/features/subscriptions/components/subscribe-button';
import { recordWatch } from '@/features/users/api/users.api';
import { incrementViews, mergePages, useDeleteVideo, useTogglePublish, useVideo, useVideoList } from '@/features/videos/api/videos.api';
import { DescriptionBox } from '@/features/videos/components/description-box';
import { EditVideoDialog } from '@/features/videos/components/edit-video-dialog';
import { ProcessingStatus } from '@/features/videos/components/processing-status';
import { CompactVideoCard } from '@/components/ui/video-card';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatSubscribers } from '@/lib/format';

// The player (and hls.js under it) is downloaded only when a video page opens.
const VideoPlayer = lazy(() => import('@/features/player'));

export const LINK_COPIED_MS = 600;

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}

export default function VideoPage() {
  const { videoId = '' } = useParams();
  const { user, isAuthenticated, appLoading } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const q = useVideo(videoId);
  const video = q.data;
  const related = useVideoList({});
  const del = useDeleteVideo(videoId);
  const publish = useTogglePublish(videoId);

  const [theater, setTheater] = useState(false);
  const [copied, setCopied] = useState(false);
  const [playlistOpen, setPlaylistOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [subDelta, setSubDelta] = useState(0);
  const [viewDelta, setViewDelta] = useState(0);
  // The publish switch moves at once and goes back if the server refuses.
  const [publishedOverride, setPublishedOverride] = useState<boolean | null>(null);
  const recorded = useRef<string | null>(null);

  const notify = useCallback(
    (message: string, kind: 'error' | 'success' | 'info') => toast.show(message, kind),
    [toast],
  );

  useEffect(() => {
    setSubDelta(0);
    setViewDelta(0);
  }, [videoId]);

  // Opening a video page records it in the signed-in user's watch history, once per page view.
  useEffect(() => {
    if (appLoading || !isAuthenticated || !video || recorded.current === video._id) return;
    recorded.current = video._id;
    recordWatch(video._id).catch(() => {});
  }, [appLoading, isAuthenticated, video]);

  const onViewCounted = useCallback(() => {
    incrementViews(videoId)
      .then(() => setViewDelta((d) => d + 1))
      .catch(() => {});
  }, [videoId]);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), LINK_COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  if (q.isPending) return <Spinner label="Loading video" />;
  if (q.isError || !video) return <EmptyState>{errorMessage(q.error, 'Video not found')}</EmptyState>;

  const isOwner = user?._id === video.owner._id;
  const others = mergePages(related.data?.pages).filter((v) => v._id !== video._id).slice(0, 12);

  async function onShare() {
    await copyText(window.location.href);
    setCopied(true);
  }

  async function onDelete() {
    try {
      await del.mutateAsync();
      toast.success('Video deleted successfully');
      navigate(user ? `/${user.username}` : '/');
    } catch {
      toast.error('Failed to delete video');
    } finally {
      setConfirmDelete(false);
    }
  }

  const published = publishedOverride ?? video.isPublished;

  async function onTogglePublish() {
    const next = !published;
    setPublishedOverride(next);
    try {
      await publish.mutateAsync();
      toast.success(next ? 'Video published' : 'Video unpublished');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to change publish status'));
    } finally {
      setPublishedOverride(null);
    }
  }

  const player =
    video.status === 'ready' ? (
      <Suspense fallback={<div className="aspect-video w-full animate-pulse rounded-xl bg-neutral-900" />}>
        <VideoPlayer
          key={video._id}
          videoId={video._id}
          title={video.title}
          src={video.videoFile.url}
          hlsSrc={video.hls?.url ?? null}
          poster={video.thumbnail.url}
          storyboard={video.storyboard?.url ?? null}
          duration={video.duration}
          theater={theater}
          onTheaterChange={setTheater}
          onViewCounted={onViewCounted}
        />
      </Suspense>
    ) : (
      <ProcessingStatus video={video} />
    );

  return (
    <div className={cn('mx-auto', theater ? 'max-w-none' : 'max-w-[1700px]')}>
      {theater && <div className="-mx-4 mb-4 bg-black sm:-mx-6">{player}</div>}
      <div className="flex flex-col gap-6 xl:flex-row">
        <div className="min-w-0 flex-1">
          {!theater && <div className="overflow-hidden rounded-xl bg-black">{player}</div>}
          <h1 className="mt-3 break-words text-xl font-bold" data-testid="video-title">
            {video.title}
          </h1>
          {!published && (
            <p className="mt-1 text-xs font-medium uppercase text-amber-600">Unpublished: only you can see this video</p>
          )}
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
            <div className="flex min-w-0 items-center gap-3">
              <Link to={`/channel/${video.owner.username}`} aria-label={`${video.owner.fullName} channel`}>
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
                onSignedOut={() => toast.info('Please login to like content.')}
                onError={(m) => toast.error(m)}
              />
              <div className="relative">
                <Button onClick={onShare}>
                  <ShareIcon width={18} height={18} /> Share
                </Button>
                {copied && (
                  <span
                    role="status"
                    className="absolute left-1/2 top-full z-10 mt-2 -translate-x-1/2 whitespace-nowrap rounded-lg bg-neutral-900 px-3 py-1.5 text-xs text-white shadow dark:bg-white dark:text-neutral-900"
                  >
                    Video Link copied!
                  </span>
                )}
              </div>
              <Button
                onClick={() =>
                  isAuthenticated ? setPlaylistOpen(true) : toast.info('Please sign in to add videos to your playlists')
                }
              >
                <PlaylistAddIcon width={18} height={18} /> Save
              </Button>
            </div>
          </div>
          {isOwner && (
            <div className="mt-3 flex flex-wrap items-center gap-2 rounded-xl border border-neutral-200 p-2 dark:border-neutral-800">
              <span className="px-2 text-xs font-semibold uppercase text-neutral-500">Your video</span>
              <Button size="sm" onClick={() => setEditOpen(true)}>
                <EditIcon width={16} height={16} /> Edit
              </Button>
              <Button size="sm" onClick={() => setConfirmDelete(true)}>
                <TrashIcon width={16} height={16} /> Delete
              </Button>
              <label className="ml-auto flex cursor-pointer items-center gap-2 px-2 text-sm">
                <input
                  type="checkbox"
                  role="switch"
                  className="h-4 w-4 accent-rose-600"
                  checked={published}
                  disabled={publish.isPending}
                  onChange={onTogglePublish}
                  aria-checked={published}
                />
                Published
              </label>
            </div>
          )}
          <DescriptionBox description={video.description} views={video.views + viewDelta} createdAt={video.createdAt} />
          <CommentsSection
            videoId={video._id}
            viewer={user}
            notify={notify}
            renderActions={(c) => (
              <LikeButton
                size="sm"
                labelSuffix=" comment"
                contentType="comment"
                contentId={c._id}
                liked={c.isLiked}
                count={c.likesCount}
                signedIn={isAuthenticated}
                onSignedOut={() => toast.info('Please login to like content.')}
                onError={(m) => toast.error(m)}
              />
            )}
          />
        </div>
        <aside className="w-full shrink-0 xl:w-[360px]" aria-label="More videos">
          {others.length > 0 && <h2 className="mb-3 font-semibold">More videos</h2>}
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-1">
            {others.map((v) => (
              <CompactVideoCard key={v._id} video={v} />
            ))}
          </div>
        </aside>
      </div>
      {isAuthenticated && user && (
        <AddToPlaylistDialog
          open={playlistOpen}
          onClose={() => setPlaylistOpen(false)}
          videoId={video._id}
          userId={user._id}
          notify={notify}
        />
      )}
      {isOwner && (
        <>
          <EditVideoDialog video={video} open={editOpen} onClose={() => setEditOpen(false)} notify={notify} />
          <ConfirmDialog
            open={confirmDelete}
            title="Delete video"
            message={`Delete "${video.title}"? This cannot be undone.`}
            confirmLabel="Delete"
            busy={del.isPending}
            onConfirm={onDelete}
            onCancel={() => setConfirmDelete(false)}
          />
        </>
      )}
    </div>
  );
}
