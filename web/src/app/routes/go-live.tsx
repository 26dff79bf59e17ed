import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, InlineMessage, PageTitle, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useLiveDetail } from '@/features/live/api/live.api';
import { usePlaylistReady } from '@/features/live/api/playlist-ready';
import { ChatPanel } from '@/features/live/components/chat-panel';
import { BrowserPublisher } from '@/features/live-publish/components/browser-publisher';
import { CreateLiveForm } from '@/features/live/components/go-live/create-live-form';
import { LiveControls } from '@/features/live/components/go-live/live-controls';
import { LiveStatusPill, MyLives } from '@/features/live/components/go-live/my-lives';
import { StreamHealth } from '@/features/live/components/go-live/stream-health';
import { StreamSetup } from '@/features/live/components/go-live/stream-setup';
import { playerMedia } from '@/features/player/media-props';
import { useVideo } from '@/features/videos/api/videos.api';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';

const VideoPlayer = lazy(() => import('@/features/player'));

/** The studio's Go live page: make a live or pick one, then everything to run it. */
export default function GoLivePage() {
  const { t } = useTranslation('app');
  const [params, setParams] = useSearchParams();
  const selected = params.get('live');
  const hrefFor = (id: string) => `?live=${encodeURIComponent(id)}`;
  return (
    <div className="mx-auto max-w-[1400px]">
      <PageTitle>{t('goLive.title')}</PageTitle>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[260px_minmax(0,1fr)]">
        <aside className="flex flex-col gap-3">
          <Button variant={selected ? 'secondary' : 'primary'} onClick={() => setParams({})}>
            {t('goLive.newLive')}
          </Button>
          <MyLives selected={selected} hrefFor={hrefFor} />
        </aside>
        {selected ? (
          <LiveDashboard key={selected} videoId={selected} />
        ) : (
          <section aria-label={t('goLive.createLive')} className="max-w-2xl">
            <CreateLiveForm onCreated={(id) => setParams({ live: id })} />
          </section>
        )}
      </div>
    </div>
  );
}

function LiveDashboard({ videoId }: { videoId: string }) {
  const { t } = useTranslation('app');
  const { user } = useAuth();
  const toast = useToast();
  const notify = useCallback((message: string, kind: 'error' | 'success' | 'info') => toast.show(message, kind), [toast]);
  const detail = useLiveDetail(videoId);
  const video = useVideo(videoId);
  const status = detail.data?.status;
  // The live went on air or ended: the video now has its live playlist or its replay.
  const { refetch } = video;
  useEffect(() => {
    if (status) void refetch();
  }, [status, refetch]);
  const [viewers, setViewers] = useState<number | null>(null);
  const liveSrc = status === 'live' ? (video.data?.hls?.url ?? null) : null;
  const previewReady = usePlaylistReady(liveSrc);

  if (detail.isPending) return <Spinner label={t('goLive.loading')} />;
  if (detail.isError) return <InlineMessage>{errorMessage(detail.error, t('goLive.loadFailed'))}</InlineMessage>;
  const live = detail.data;
  const v = video.data;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 2xl:grid-cols-[minmax(0,1fr)_360px]">
      <div className="flex min-w-0 flex-col gap-6">
        <header className="flex flex-wrap items-center gap-3">
          <h2 className="min-w-0 truncate text-lg font-semibold" data-testid="go-live-title">
            {v?.title ?? t('goLive.untitled')}
          </h2>
          <LiveStatusPill status={live.status} />
          <Link to={`/video/${videoId}`} className="ms-auto text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
            {t('goLive.openLivePage')}
          </Link>
        </header>
        <div className="overflow-hidden rounded-xl bg-black" aria-label={t('goLive.preview')}>
          {previewReady && v ? (
            <Suspense fallback={<div className="aspect-video w-full animate-pulse bg-neutral-900" />}>
              <VideoPlayer {...playerMedia(v)} live muted autoPlay theater={false} onTheaterChange={() => {}} onViewCounted={() => {}} />
            </Suspense>
          ) : (
            <div className="flex aspect-video w-full items-center justify-center px-6 text-center text-sm text-neutral-300">
              {live.status === 'ended'
                ? v?.status === 'processing'
                  ? t('goLive.replayPreparing', { progress: v.progress })
                  : v?.hls
                    ? t('goLive.replayReady')
                    : t('goLive.ended')
                : live.status === 'live'
                  ? t('goLive.starting')
                  : t('goLive.waitingForEncoder')}
            </div>
          )}
        </div>
        <StreamHealth health={live.health} viewers={viewers ?? live.viewers} />
        <LiveControls live={live} notify={notify} />
        <section
          aria-labelledby="publish-from-browser"
          className="rounded-xl border border-dashed border-neutral-300 p-4 dark:border-neutral-700"
          data-testid="browser-publish"
        >
          <h2 id="publish-from-browser" className="text-base font-semibold">
            {t('goLive.publishFromBrowser')}
          </h2>
          {live.ingest.browser && live.status !== 'ended' ? (
            <>
              <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{t('goLive.browserHint')}</p>
              <div className="mt-3">
                <BrowserPublisher videoId={videoId} />
              </div>
            </>
          ) : (
            <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">
              {live.status === 'ended' ? t('goLive.thisLiveEnded') : t('goLive.noBrowserPublishing')}
            </p>
          )}
        </section>
        {live.status !== 'ended' && <StreamSetup videoId={videoId} rtmp={live.ingest.rtmp} streamKey={live.streamKey} notify={notify} />}
      </div>
      <div className="relative h-[520px] 2xl:h-auto">
        {user && (
          <ChatPanel
            videoId={videoId}
            channelOwnerId={user._id}
            viewer={{ _id: user._id, role: user.role }}
            stream={live.status !== 'ended'}
            notify={notify}
            onViewers={setViewers}
            className="absolute inset-0"
          />
        )}
      </div>
    </div>
  );
}
