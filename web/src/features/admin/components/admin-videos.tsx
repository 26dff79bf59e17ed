import { ADMIN_VIDEO_STATUSES, type AdminVideo } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, Spinner, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { cn } from '@/lib/cn';
import { useAdminVideos, useRetryVideo } from '../api/admin.api';
import { formatBytes } from '@/lib/format';
import { formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Pager, Section, Table, type Tone } from './admin-ui';
import { failureReasonText } from '@/features/videos/lib/failure-reason';

const STATUS_TONE: Record<AdminVideo['status'], Tone> = { ready: 'good', processing: 'info', failed: 'bad' };

/** The names of the video states, as the filter and the badges show them. */
function useStatusLabels(): Record<(typeof ADMIN_VIDEO_STATUSES)[number], string> {
  const { t } = useTranslation('admin');
  return { ready: t('videos.status.ready'), processing: t('videos.status.processing'), failed: t('videos.status.failed'), hidden: t('videos.status.hidden') };
}

/** Videos in every state: filter by status, search by title, see why processing failed and retry it. */
export function AdminVideos() {
  const { t } = useTranslation('admin');
  const statusLabel = useStatusLabels();
  const [status, setStatus] = useState('');
  const [query, setQuery] = useState('');
  const [pageNumber, setPage] = useState(1);
  const { data, error, isPending } = useAdminVideos({ status: status || undefined, query: query.trim() || undefined, pageNumber });
  return (
    <Section title={t('videos.title')}>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <div role="group" aria-label={t('videos.statusFilter')} className="flex flex-wrap gap-1 rounded-full bg-neutral-100 p-1 dark:bg-neutral-800">
          {['', ...ADMIN_VIDEO_STATUSES].map((s) => (
            <button
              key={s || 'all'}
              type="button"
              aria-pressed={status === s}
              onClick={() => {
                setStatus(s);
                setPage(1);
              }}
              className={cn(
                'rounded-full px-3 py-1 text-sm font-medium capitalize',
                status === s
                  ? 'bg-white text-neutral-900 shadow-sm dark:bg-neutral-950 dark:text-white'
                  : 'text-neutral-600 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-white',
              )}
            >
              {s ? statusLabel[s as (typeof ADMIN_VIDEO_STATUSES)[number]] : t('videos.status.all')}
            </button>
          ))}
        </div>
        <TextField
          className="min-w-64 flex-1"
          label={t('videos.search')}
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setPage(1);
          }}
        />
      </div>
      <ErrorText error={error} />
      {isPending ? (
        <Spinner />
      ) : (
        <>
          <Table
            label={t('videos.title')}
            head={[t('videos.column.video'), t('videos.column.owner'), t('videos.column.status'), t('videos.column.size'), t('videos.column.uploaded'), '']}
          >
            {data?.videos.map((v) => (
              <VideoRow key={v._id} video={v} />
            ))}
          </Table>
          {data && data.videos.length === 0 && <p className="py-6 text-center text-sm text-neutral-500">{t('videos.empty')}</p>}
          {data && <Pager page={data.currentPage} totalPages={data.totalPages} onPage={setPage} />}
        </>
      )}
    </Section>
  );
}

function VideoRow({ video: v }: { video: AdminVideo }) {
  const { t } = useTranslation('admin');
  const statusLabel = useStatusLabels();
  const visibility = { public: t('videos.visibility.public'), unlisted: t('videos.visibility.unlisted'), private: t('videos.visibility.private') };
  const retry = useRetryVideo();
  const toast = useToast();
  return (
    <tr>
      <Cell className="max-w-80">
        <Link to={`/video/${v._id}`} className="font-medium hover:underline">
          {v.title}
        </Link>
        <p className="text-xs text-neutral-500 dark:text-neutral-400">
          {v.hidden ? t('videos.visibilityTakenDown', { visibility: visibility[v.visibility] }) : visibility[v.visibility]}
        </p>
      </Cell>
      <Cell>
        <Link to={`/channel/${v.owner.username}`} className="hover:underline">
          @{v.owner.username}
        </Link>
      </Cell>
      <Cell className="max-w-80">
        <div className="flex flex-wrap gap-1">
          <Badge tone={STATUS_TONE[v.status]}>
            {v.status === 'processing' ? t('videos.processingProgress', { progress: v.progress }) : statusLabel[v.status]}
          </Badge>
          {v.hidden && <Badge tone="warn">{statusLabel.hidden}</Badge>}
        </div>
        {v.failureReason && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{failureReasonText(v.failureReason)}</p>}
      </Cell>
      <Cell>{formatBytes(v.sourceBytes)}</Cell>
      <Cell>{formatWhen(v.createdAt)}</Cell>
      <Cell>
        {v.canRetry && (
          <Button
            size="sm"
            disabled={retry.isPending}
            aria-label={t('videos.retryLabel', { title: v.title })}
            onClick={() => retry.mutate(v._id, { onSuccess: () => toast.show(t('videos.retried'), 'success'), onError: (e) => toast.show(e.message, 'error') })}
          >
            {t('retry')}
          </Button>
        )}
      </Cell>
    </tr>
  );
}
