import type { AdminJob } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { useAdminJobs, useRetryJob } from '../api/admin.api';
import { formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Figure, Section, Table } from './admin-ui';

/** The job queue: depth per lane, what runs now, and what failed for good, with a retry. */
export function AdminJobs() {
  const { t } = useTranslation('admin');
  const { data, error, isPending } = useAdminJobs();
  const laneNote = {
    playable: t('jobs.lane.playable'),
    live: t('jobs.lane.live'),
    background: t('jobs.lane.background'),
    federation: t('jobs.lane.federation'),
  };
  if (isPending) return <Spinner />;
  if (!data) return <ErrorText error={error} />;
  return (
    <>
      <Section title={t('jobs.lanes')} actions={<Badge>{data.backend === 'redis' ? t('jobs.backend.redis') : t('jobs.backend.database')}</Badge>}>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-4">
          {data.lanes.map((l) => (
            <Figure
              key={l.lane}
              label={l.lane}
              value={t('jobs.waiting', { count: l.waiting, formatted: formatNumber(l.waiting) })}
              detail={
                <>
                  {t('jobs.runningDelayed', { running: formatNumber(l.running), delayed: formatNumber(l.delayed) })}{' '}
                  <span className={l.failed ? 'text-red-600 dark:text-red-400' : ''}>
                    {t('jobs.failedCount', { count: l.failed, formatted: formatNumber(l.failed) })}
                  </span>
                  <br />
                  {laneNote[l.lane]}
                </>
              }
            />
          ))}
        </div>
      </Section>
      <Section title={t('jobs.running')}>
        {data.running.length === 0 ? (
          <p className="text-sm text-neutral-500">{t('jobs.nothingRunning')}</p>
        ) : (
          <Table
            label={t('jobs.runningJobs')}
            head={[t('jobs.column.job'), t('jobs.column.video'), t('jobs.column.attempt'), t('jobs.column.progress'), t('jobs.column.since')]}
          >
            {data.running.map((j) => (
              <tr key={j._id}>
                <Cell>
                  <JobName job={j} />
                </Cell>
                <Cell>
                  <VideoLink job={j} />
                </Cell>
                <Cell>{t('jobs.attempts', { attempts: j.attempts, max: j.maxAttempts })}</Cell>
                <Cell>{j.progress === null ? '—' : t('jobs.progress', { progress: j.progress })}</Cell>
                <Cell>{formatWhen(j.updatedAt)}</Cell>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title={t('jobs.failed')}>
        {data.failed.length === 0 ? (
          <p className="text-sm text-neutral-500">{t('jobs.noneFailed')}</p>
        ) : (
          <Table
            label={t('jobs.failedJobs')}
            head={[t('jobs.column.job'), t('jobs.column.video'), t('jobs.column.error'), t('jobs.column.attempts'), t('jobs.column.failed'), '']}
          >
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
  const { t } = useTranslation('admin');
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
      <Cell>{t('jobs.attempts', { attempts: j.attempts, max: j.maxAttempts })}</Cell>
      <Cell>{formatWhen(j.updatedAt)}</Cell>
      <Cell>
        <Button
          size="sm"
          disabled={retry.isPending}
          aria-label={t('jobs.retryLabel', { id: j._id })}
          onClick={() => retry.mutate(j._id, { onSuccess: () => toast.show(t('jobs.retried'), 'success'), onError: (e) => toast.show(e.message, 'error') })}
        >
          {t('retry')}
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
