import { ADMIN_VIDEO_STATUSES, type AdminVideo } from '@reelhouse/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Spinner, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { cn } from '@/lib/cn';
import { useAdminVideos, useRetryVideo } from '../api/admin.api';
import { formatBytes, formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Pager, Section, Table, type Tone } from './admin-ui';

const STATUS_TONE: Record<AdminVideo['status'], Tone> = { ready: 'good', processing: 'info', failed: 'bad' };

/** Videos in every state: filter by status, search by title, see why processing failed and retry it. */
export function AdminVideos() {
  const [status, setStatus] = useState('');
  const [query, setQuery] = useState('');
  const [pageNumber, setPage] = useState(1);
  const { data, error, isPending } = useAdminVideos({ status: status || undefined, query: query.trim() || undefined, pageNumber });
  return (
    <Section title="Videos">
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <div role="group" aria-label="Status" className="flex flex-wrap gap-1 rounded-full bg-neutral-100 p-1 dark:bg-neutral-800">
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
              {s || 'all'}
            </button>
          ))}
        </div>
        <TextField
          className="min-w-64 flex-1"
          label="Search by title"
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
          <Table label="Videos" head={['Video', 'Owner', 'Status', 'Size', 'Uploaded', '']}>
            {data?.videos.map((v) => (
              <VideoRow key={v._id} video={v} />
            ))}
          </Table>
          {data && data.videos.length === 0 && <p className="py-6 text-center text-sm text-neutral-500">No video matches.</p>}
          {data && <Pager page={data.currentPage} totalPages={data.totalPages} onPage={setPage} />}
        </>
      )}
    </Section>
  );
}

function VideoRow({ video: v }: { video: AdminVideo }) {
  const retry = useRetryVideo();
  const toast = useToast();
  return (
    <tr>
      <Cell className="max-w-80">
        <Link to={`/video/${v._id}`} className="font-medium hover:underline">
          {v.title}
        </Link>
        <p className="text-xs text-neutral-500 dark:text-neutral-400">
          {v.visibility}
          {v.hidden && ' · taken down'}
        </p>
      </Cell>
      <Cell>
        <Link to={`/channel/${v.owner.username}`} className="hover:underline">
          @{v.owner.username}
        </Link>
      </Cell>
      <Cell className="max-w-80">
        <div className="flex flex-wrap gap-1">
          <Badge tone={STATUS_TONE[v.status]}>{v.status === 'processing' ? `processing ${v.progress}%` : v.status}</Badge>
          {v.hidden && <Badge tone="warn">hidden</Badge>}
        </div>
        {v.failureReason && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{v.failureReason}</p>}
      </Cell>
      <Cell>{formatBytes(v.sourceBytes)}</Cell>
      <Cell>{formatWhen(v.createdAt)}</Cell>
      <Cell>
        {v.canRetry && (
          <Button
            size="sm"
            disabled={retry.isPending}
            aria-label={`Retry processing of ${v.title}`}
            onClick={() =>
              retry.mutate(v._id, { onSuccess: () => toast.show('Processing queued again', 'success'), onError: (e) => toast.show(e.message, 'error') })
            }
          >
            Retry
          </Button>
        )}
      </Cell>
    </tr>
  );
}
