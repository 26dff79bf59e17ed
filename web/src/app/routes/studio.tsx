import type { StudioVideo, Visibility } from '@reelhouse/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { LiveIcon } from '@/components/ui/icons';
import { Button, EmptyState, InlineMessage, PageTitle, Spinner } from '@/components/ui/primitives';
import { type StudioFilter, type StudioSort, useBulkChange, useStudioVideos, useVideoStats } from '@/features/studio/api/studio.api';
import { ViewsChart } from '@/features/studio/components/views-chart';
import { LiveStatusPill } from '@/features/live/components/go-live/my-lives';
import { useAuth } from '@/lib/auth';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { errorMessage } from '@/lib/api-client';

const SELECT = 'h-9 rounded-lg border border-neutral-300 bg-white px-2 text-sm dark:border-neutral-700 dark:bg-neutral-900';

function stateLabel(v: StudioVideo): string {
  if (v.takenDown) return 'Taken down';
  if (v.status === 'processing') return `Processing ${v.progress}%`;
  if (v.status === 'failed') return 'Failed';
  return 'Ready';
}

function visibilityLabel(v: StudioVideo): string {
  if (v.publishAt) return `Scheduled ${formatDateTime(v.publishAt)}`;
  return v.visibility[0]!.toUpperCase() + v.visibility.slice(1);
}

/** The owner's videos in every state, their numbers, changes to several at once, and a video's views per day. */
export default function StudioPage() {
  const [filter, setFilter] = useState<StudioFilter>({ sortBy: 'createdAt', sortType: 'desc' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [chartFor, setChartFor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = useStudioVideos(filter);
  const bulk = useBulkChange();
  const videos = list.data?.videos ?? [];
  const { user } = useAuth();
  const goLive = `/${user?.username ?? ''}/studio/live`;

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function apply(action: Visibility | 'delete') {
    if (action === 'delete' && !window.confirm(`Delete ${selected.size} video(s)? This cannot be undone.`)) return;
    setError(null);
    try {
      await bulk.mutateAsync({ ids: [...selected], action });
      setSelected(new Set());
    } catch (err) {
      setError(errorMessage(err, 'Some videos could not be changed'));
    }
  }

  return (
    <div className="mx-auto max-w-[1200px]">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageTitle>Studio</PageTitle>
        <Link to={goLive} className="inline-flex h-10 items-center gap-2 rounded-full bg-rose-600 px-4 text-sm font-medium text-white hover:bg-rose-700">
          <LiveIcon width={18} height={18} /> Go live
        </Link>
      </div>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <label className="text-sm">
          Sort{' '}
          <select
            aria-label="Sort by"
            className={SELECT}
            value={`${filter.sortBy}:${filter.sortType}`}
            onChange={(e) => {
              const [sortBy, sortType] = e.target.value.split(':') as [StudioSort, 'asc' | 'desc'];
              setFilter((f) => ({ ...f, sortBy, sortType }));
            }}
          >
            <option value="createdAt:desc">Newest</option>
            <option value="createdAt:asc">Oldest</option>
            <option value="views:desc">Most viewed</option>
            <option value="title:asc">Title</option>
          </select>
        </label>
        <select
          aria-label="Filter by visibility"
          className={SELECT}
          value={filter.visibility ?? ''}
          onChange={(e) => setFilter((f) => ({ ...f, visibility: (e.target.value || undefined) as Visibility | undefined }))}
        >
          <option value="">All visibilities</option>
          <option value="public">Public</option>
          <option value="unlisted">Unlisted</option>
          <option value="private">Private</option>
        </select>
        <select
          aria-label="Filter by state"
          className={SELECT}
          value={filter.status ?? ''}
          onChange={(e) => setFilter((f) => ({ ...f, status: (e.target.value || undefined) as StudioFilter['status'] }))}
        >
          <option value="">All states</option>
          <option value="ready">Ready</option>
          <option value="processing">Processing</option>
          <option value="failed">Failed</option>
        </select>
        <div className="ml-auto flex items-center gap-2" aria-label="Change selected videos">
          <span className="text-sm text-neutral-500">{selected.size} selected</span>
          {(['public', 'unlisted', 'private'] as const).map((v) => (
            <Button key={v} size="sm" disabled={selected.size === 0 || bulk.isPending} onClick={() => void apply(v)}>
              Make {v}
            </Button>
          ))}
          <Button size="sm" variant="danger" disabled={selected.size === 0 || bulk.isPending} onClick={() => void apply('delete')}>
            Delete
          </Button>
        </div>
      </div>
      {error && <InlineMessage>{error}</InlineMessage>}
      {list.isPending ? (
        <Spinner />
      ) : videos.length === 0 ? (
        <EmptyState>No videos match.</EmptyState>
      ) : (
        <table className="w-full border-collapse text-left text-sm">
          <thead className="border-b border-neutral-200 text-xs uppercase text-neutral-500 dark:border-neutral-800">
            <tr>
              <th className="w-8 py-2">
                <span className="sr-only">Select</span>
              </th>
              <th className="px-2 py-2">Video</th>
              <th className="px-2 py-2">Visibility</th>
              <th className="px-2 py-2">State</th>
              <th className="px-2 py-2 text-right">Views</th>
              <th className="px-2 py-2 text-right">Likes</th>
              <th className="px-2 py-2 text-right">Comments</th>
              <th className="px-2 py-2 text-right">Date</th>
              <th className="px-2 py-2">
                <span className="sr-only">Numbers</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {videos.map((v) => (
              <StudioRow
                key={v._id}
                video={v}
                selected={selected.has(v._id)}
                onToggle={() => toggle(v._id)}
                chartOpen={chartFor === v._id}
                onChart={() => setChartFor((c) => (c === v._id ? null : v._id))}
                goLive={goLive}
              />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function StudioRow({
  video: v,
  selected,
  onToggle,
  chartOpen,
  onChart,
  goLive,
}: {
  video: StudioVideo;
  goLive: string;
  selected: boolean;
  onToggle: () => void;
  chartOpen: boolean;
  onChart: () => void;
}) {
  return (
    <>
      <tr className="border-b border-neutral-100 align-middle dark:border-neutral-900" data-testid="studio-row">
        <td className="px-2 py-2">
          <input type="checkbox" aria-label={`Select ${v.title}`} checked={selected} onChange={onToggle} />
        </td>
        <td className="px-2 py-2">
          <Link to={`/video/${v._id}`} className="flex items-center gap-3 hover:underline">
            {v.thumbnail.url ? <img src={v.thumbnail.url} alt="" className="aspect-video w-24 rounded object-cover" /> : null}
            <span className="line-clamp-2 font-medium">{v.title}</span>
          </Link>
        </td>
        <td className="px-2 py-2">{visibilityLabel(v)}</td>
        <td className="px-2 py-2">
          {v.live ? (
            <span className="flex flex-col items-start gap-1">
              <LiveStatusPill status={v.live.status} />
              <Link to={`${goLive}?live=${v._id}`} className="text-xs font-medium text-rose-600 hover:underline dark:text-rose-400">
                Go live page
              </Link>
            </span>
          ) : (
            <span>{stateLabel(v)}</span>
          )}
          {v.status === 'failed' && v.failureReason && <span className="block text-xs text-red-600 dark:text-red-400">{v.failureReason}</span>}
        </td>
        <td className="px-2 py-2 text-right tabular-nums">{formatNumber(v.views)}</td>
        <td className="px-2 py-2 text-right tabular-nums">{v.likesCount}</td>
        <td className="px-2 py-2 text-right tabular-nums">{v.commentsCount}</td>
        <td className="px-2 py-2 text-right">{formatDate(v.createdAt)}</td>
        <td className="px-2 py-2 text-right">
          <Button size="sm" variant="ghost" aria-expanded={chartOpen} onClick={onChart}>
            Numbers
          </Button>
        </td>
      </tr>
      {chartOpen && (
        <tr>
          <td colSpan={9} className="py-3">
            <StatsPanel videoId={v._id} />
          </td>
        </tr>
      )}
    </>
  );
}

function StatsPanel({ videoId }: { videoId: string }) {
  const stats = useVideoStats(videoId);
  if (stats.isPending) return <Spinner />;
  if (stats.isError) return <InlineMessage>{errorMessage(stats.error, 'Could not load the numbers')}</InlineMessage>;
  const t = stats.data.totals;
  return (
    <section aria-label="Views in the last 28 days" className="rounded-xl bg-neutral-50 p-4 dark:bg-neutral-900">
      <dl className="mb-3 flex flex-wrap gap-6 text-sm">
        <div>
          <dt className="text-neutral-500">Views, last 28 days</dt>
          <dd className="text-lg font-bold" data-testid="period-views">
            {t.periodViews}
          </dd>
        </div>
        <div>
          <dt className="text-neutral-500">Views</dt>
          <dd className="text-lg font-bold">{t.views}</dd>
        </div>
        <div>
          <dt className="text-neutral-500">Likes</dt>
          <dd className="text-lg font-bold">{t.likes}</dd>
        </div>
        <div>
          <dt className="text-neutral-500">Comments</dt>
          <dd className="text-lg font-bold">{t.comments}</dd>
        </div>
      </dl>
      <ViewsChart days={stats.data.days} />
    </section>
  );
}
