import type { AdminJob } from '@reelhouse/contract';
import { Link } from 'react-router';
import { Button, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useAdminJobs, useRetryJob } from '../api/admin.api';
import { formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Figure, Section, Table } from './admin-ui';

const LANE_NOTE = {
  playable: 'Quick remuxes that make uploads playable',
  live: 'Live renditions of sources browsers cannot play',
  background: 'Seek previews and HLS ladders',
} as const;

/** The job queue: depth per lane, what runs now, and what failed for good, with a retry. */
export function AdminJobs() {
  const { data, error, isPending } = useAdminJobs();
  if (isPending) return <Spinner />;
  if (!data) return <ErrorText error={error} />;
  return (
    <>
      <Section title="Lanes" actions={<Badge>{data.backend === 'redis' ? 'BullMQ on Redis' : 'Job table in the database'}</Badge>}>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {data.lanes.map((l) => (
            <Figure
              key={l.lane}
              label={l.lane}
              value={`${l.waiting} waiting`}
              detail={
                <>
                  {l.running} running · {l.delayed} delayed · <span className={l.failed ? 'text-red-600 dark:text-red-400' : ''}>{l.failed} failed</span>
                  <br />
                  {LANE_NOTE[l.lane]}
                </>
              }
            />
          ))}
        </div>
      </Section>
      <Section title="Running">
        {data.running.length === 0 ? (
          <p className="text-sm text-neutral-500">Nothing is running.</p>
        ) : (
          <Table label="Running jobs" head={['Job', 'Video', 'Attempt', 'Progress', 'Since']}>
            {data.running.map((j) => (
              <tr key={j._id}>
                <Cell>
                  <JobName job={j} />
                </Cell>
                <Cell>
                  <VideoLink job={j} />
                </Cell>
                <Cell>
                  {j.attempts} of {j.maxAttempts}
                </Cell>
                <Cell>{j.progress === null ? '—' : `${j.progress}%`}</Cell>
                <Cell>{formatWhen(j.updatedAt)}</Cell>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Failed">
        {data.failed.length === 0 ? (
          <p className="text-sm text-neutral-500">No job has failed.</p>
        ) : (
          <Table label="Failed jobs" head={['Job', 'Video', 'Error', 'Attempts', 'Failed', '']}>
            {data.failed.map((j) => (
              <FailedRow key={j._id} job={j} />
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}

function FailedRow({ job: j }: { job: AdminJob }) {
  const retry = useRetryJob();
  const toast = useToast();
  return (
    <tr>
      <Cell>
        <JobName job={j} />
      </Cell>
      <Cell>
        <VideoLink job={j} />
      </Cell>
      <Cell className="max-w-96 break-words text-red-700 dark:text-red-300">{j.error ?? '—'}</Cell>
      <Cell>
        {j.attempts} of {j.maxAttempts}
      </Cell>
      <Cell>{formatWhen(j.updatedAt)}</Cell>
      <Cell>
        <Button
          size="sm"
          disabled={retry.isPending}
          aria-label={`Retry job ${j._id}`}
          onClick={() => retry.mutate(j._id, { onSuccess: () => toast.show('Job queued again', 'success'), onError: (e) => toast.show(e.message, 'error') })}
        >
          Retry
        </Button>
      </Cell>
    </tr>
  );
}

const JobName = ({ job }: { job: AdminJob }) => (
  <>
    <span className="font-mono text-xs">{job.name}</span>
    <p className="text-xs text-neutral-500 dark:text-neutral-400">
      #{job._id} · {job.lane}
    </p>
  </>
);

const VideoLink = ({ job }: { job: AdminJob }) =>
  job.videoId ? (
    <Link className="hover:underline" to={`/video/${job.videoId}`}>
      {job.videoTitle ?? job.videoId}
    </Link>
  ) : (
    <span>—</span>
  );
