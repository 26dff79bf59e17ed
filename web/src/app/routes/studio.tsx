import type { StudioVideo, Visibility } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LiveIcon } from '@/components/ui/icons';
import { Button, EmptyState, InlineMessage, PageTitle, Spinner } from '@/components/ui/primitives';
import { type StudioFilter, type StudioSort, useBulkChange, useStudioVideos, useVideoStats } from '@/features/studio/api/studio.api';
import { ViewsChart } from '@/features/studio/components/views-chart';
import { LiveStatusPill } from '@/features/live/components/go-live/my-lives';
import { useAuth } from '@/lib/auth';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { errorMessage } from '@/lib/api-client';
import { failureReasonText } from '@/features/videos/lib/failure-reason';

const SELECT = 'h-9 rounded-lg border border-neutral-300 bg-white px-2 text-sm dark:border-neutral-700 dark:bg-neutral-900';

/** The owner's videos in every state, their numbers, changes to several at once, and a video's views per day. */
export default function StudioPage() {
  const { t } = useTranslation('app');
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

  const makeLabels = {
    public: t('studio.make.public'),
    unlisted: t('studio.make.unlisted'),
    private: t('studio.make.private'),
  };

  async function apply(action: Visibility | 'delete') {
    if (action === 'delete' && !window.confirm(t('studio.deleteConfirm', { count: selected.size }))) return;
    setError(null);
    try {
      await bulk.mutateAsync({ ids: [...selected], action });
      setSelected(new Set());
    } catch (err) {
      setError(errorMessage(err, t('studio.bulkFailed')));
    }
  }

  return (
    <div className="mx-auto max-w-[1200px]">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageTitle>{t('studio.title')}</PageTitle>
        <Link to={goLive} className="inline-flex h-10 items-center gap-2 rounded-full bg-rose-600 px-4 text-sm font-medium text-white hover:bg-rose-700">
          <LiveIcon width={18} height={18} /> {t('studio.goLive')}
        </Link>
      </div>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <label className="text-sm">
          {t('studio.sort')}{' '}
          <select
            aria-label={t('studio.sortBy')}
            className={SELECT}
            value={`${filter.sortBy}:${filter.sortType}`}
            onChange={(e) => {
              const [sortBy, sortType] = e.target.value.split(':') as [StudioSort, 'asc' | 'desc'];
              setFilter((f) => ({ ...f, sortBy, sortType }));
            }}
          >
            <option value="createdAt:desc">{t('studio.sortNewest')}</option>
            <option value="createdAt:asc">{t('studio.sortOldest')}</option>
            <option value="views:desc">{t('studio.sortMostViewed')}</option>
            <option value="title:asc">{t('studio.sortTitle')}</option>
          </select>
        </label>
        <select
          aria-label={t('studio.filterVisibility')}
          className={SELECT}
          value={filter.visibility ?? ''}
          onChange={(e) => setFilter((f) => ({ ...f, visibility: (e.target.value || undefined) as Visibility | undefined }))}
        >
          <option value="">{t('studio.allVisibilities')}</option>
          <option value="public">{t('studio.visibility.public')}</option>
          <option value="unlisted">{t('studio.visibility.unlisted')}</option>
          <option value="private">{t('studio.visibility.private')}</option>
        </select>
        <select
          aria-label={t('studio.filterState')}
          className={SELECT}
          value={filter.status ?? ''}
          onChange={(e) => setFilter((f) => ({ ...f, status: (e.target.value || undefined) as StudioFilter['status'] }))}
        >
          <option value="">{t('studio.allStates')}</option>
          <option value="ready">{t('studio.state.ready')}</option>
          <option value="processing">{t('studio.state.processingFilter')}</option>
          <option value="failed">{t('studio.state.failed')}</option>
        </select>
        <div className="ms-auto flex items-center gap-2" aria-label={t('studio.changeSelected')}>
          <span className="text-sm text-neutral-500">{t('studio.selected', { count: selected.size })}</span>
          {(['public', 'unlisted', 'private'] as const).map((v) => (
            <Button key={v} size="sm" disabled={selected.size === 0 || bulk.isPending} onClick={() => void apply(v)}>
              {makeLabels[v]}
            </Button>
          ))}
          <Button size="sm" variant="danger" disabled={selected.size === 0 || bulk.isPending} onClick={() => void apply('delete')}>
            {t('studio.delete')}
          </Button>
        </div>
      </div>
      {error && <InlineMessage>{error}</InlineMessage>}
      {list.isPending ? (
        <Spinner />
      ) : videos.length === 0 ? (
        <EmptyState>{t('studio.noMatch')}</EmptyState>
      ) : (
        <table className="w-full border-collapse text-start text-sm">
          <thead className="border-b border-neutral-200 text-xs uppercase text-neutral-500 dark:border-neutral-800">
            <tr>
              <th className="w-8 py-2">
                <span className="sr-only">{t('studio.columns.select')}</span>
              </th>
              <th className="px-2 py-2">{t('studio.columns.video')}</th>
              <th className="px-2 py-2">{t('studio.columns.visibility')}</th>
              <th className="px-2 py-2">{t('studio.columns.state')}</th>
              <th className="px-2 py-2 text-end">{t('studio.columns.views')}</th>
              <th className="px-2 py-2 text-end">{t('studio.columns.likes')}</th>
              <th className="px-2 py-2 text-end">{t('studio.columns.comments')}</th>
              <th className="px-2 py-2 text-end">{t('studio.columns.date')}</th>
              <th className="px-2 py-2">
                <span className="sr-only">{t('studio.numbers')}</span>
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
  const { t } = useTranslation('app');
  const visibilityLabels = {
    public: t('studio.visibility.public'),
    unlisted: t('studio.visibility.unlisted'),
    private: t('studio.visibility.private'),
  };
  const visibility = v.publishAt ? t('studio.scheduled', { date: formatDateTime(v.publishAt) }) : visibilityLabels[v.visibility];
  const state = v.takenDown
    ? t('studio.state.takenDown')
    : v.status === 'processing'
      ? t('studio.state.processing', { progress: v.progress })
      : v.status === 'failed'
        ? t('studio.state.failed')
        : t('studio.state.ready');
  return (
    <>
      <tr className="border-b border-neutral-100 align-middle dark:border-neutral-900" data-testid="studio-row">
        <td className="px-2 py-2">
          <input type="checkbox" aria-label={t('studio.selectVideo', { title: v.title })} checked={selected} onChange={onToggle} />
        </td>
        <td className="px-2 py-2">
          <Link to={`/video/${v._id}`} className="flex items-center gap-3 hover:underline">
            {v.thumbnail.url ? <img src={v.thumbnail.url} alt="" className="aspect-video w-24 rounded object-cover" /> : null}
            <span className="line-clamp-2 font-medium">{v.title}</span>
          </Link>
        </td>
        <td className="px-2 py-2">{visibility}</td>
        <td className="px-2 py-2">
          {v.live ? (
            <span className="flex flex-col items-start gap-1">
              <LiveStatusPill status={v.live.status} />
              <Link to={`${goLive}?live=${v._id}`} className="text-xs font-medium text-rose-600 hover:underline dark:text-rose-400">
                {t('studio.goLivePage')}
              </Link>
            </span>
          ) : (
            <span>{state}</span>
          )}
          {v.status === 'failed' && v.failureReason && (
            <span className="block text-xs text-red-600 dark:text-red-400">{failureReasonText(v.failureReason)}</span>
          )}
        </td>
        <td className="px-2 py-2 text-end tabular-nums">{formatNumber(v.views)}</td>
        <td className="px-2 py-2 text-end tabular-nums">{v.likesCount}</td>
        <td className="px-2 py-2 text-end tabular-nums">{v.commentsCount}</td>
        <td className="px-2 py-2 text-end">{formatDate(v.createdAt)}</td>
        <td className="px-2 py-2 text-end">
          <Button size="sm" variant="ghost" aria-expanded={chartOpen} onClick={onChart}>
            {t('studio.numbers')}
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
  const { t } = useTranslation('app');
  const stats = useVideoStats(videoId);
  if (stats.isPending) return <Spinner />;
  if (stats.isError) return <InlineMessage>{errorMessage(stats.error, t('studio.statsFailed'))}</InlineMessage>;
  const totals = stats.data.totals;
  return (
    <section aria-label={t('studio.statsLabel')} className="rounded-xl bg-neutral-50 p-4 dark:bg-neutral-900">
      <dl className="mb-3 flex flex-wrap gap-6 text-sm">
        <div>
          <dt className="text-neutral-500">{t('studio.periodViews')}</dt>
          <dd className="text-lg font-bold" data-testid="period-views">
            {totals.periodViews}
          </dd>
        </div>
        <div>
          <dt className="text-neutral-500">{t('studio.columns.views')}</dt>
          <dd className="text-lg font-bold">{totals.views}</dd>
        </div>
        <div>
          <dt className="text-neutral-500">{t('studio.columns.likes')}</dt>
          <dd className="text-lg font-bold">{totals.likes}</dd>
        </div>
        <div>
          <dt className="text-neutral-500">{t('studio.columns.comments')}</dt>
          <dd className="text-lg font-bold">{totals.comments}</dd>
        </div>
      </dl>
      <ViewsChart days={stats.data.days} />
    </section>
  );
}
