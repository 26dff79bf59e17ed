import type { AdminBackup } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { Button, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useAdminBackups, useStartBackup } from '../api/backups.api';
import { formatBytes } from '@/lib/format';
import { formatDuration, formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Figure, Section, Table, type Tone } from './admin-ui';

const STATUS_TONE: Record<AdminBackup['status'], Tone> = { running: 'info', ok: 'good', failed: 'bad' };

/** Backups: whether the site has a recent good one, when the next is due, and every recent run. */
export function AdminBackups() {
  const { t } = useTranslation('admin');
  const { data, error, isPending } = useAdminBackups();
  const start = useStartBackup();
  const toast = useToast();
  if (isPending) return <Spinner />;
  if (!data) return <ErrorText error={error} />;
  const { schedule, lastGood } = data;
  const running = data.backups.some((b) => b.status === 'running');
  return (
    <>
      <Section
        title={t('backups.title')}
        actions={
          <Button
            disabled={start.isPending || running}
            onClick={() =>
              start.mutate(undefined, {
                onSuccess: () => toast.show(t('backups.started'), 'success'),
                onError: (e) => toast.show(e.message, 'error'),
              })
            }
          >
            {running ? t('backups.backingUp') : t('backups.backUpNow')}
          </Button>
        }
      >
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <Figure
            label={t('backups.lastGood')}
            value={lastGood ? formatWhen(lastGood.finishedAt ?? lastGood.startedAt) : t('backups.noneYet')}
            detail={
              lastGood
                ? t('backups.lastGoodDetail', { size: formatBytes(lastGood.bytes ?? 0), took: formatDuration(lastGood.tookMs ?? 0) })
                : t('backups.lastGoodNone')
            }
          />
          <Figure
            label={t('backups.next')}
            value={schedule.next ? formatWhen(schedule.next) : t('backups.notScheduled')}
            detail={schedule.cron ? t('backups.schedule', { cron: schedule.cron, count: schedule.keep }) : t('backups.noSchedule')}
          />
          <Figure
            label={t('backups.writtenTo')}
            value={<span className="block break-all font-mono text-sm font-normal leading-5">{schedule.dir}</span>}
            detail={t('backups.writtenToDetail')}
          />
        </div>
      </Section>
      <Section title={t('backups.recent')}>
        {data.backups.length === 0 ? (
          <p className="text-sm text-neutral-500">{t('backups.empty')}</p>
        ) : (
          <Table
            label={t('backups.recent')}
            head={[
              t('backups.column.started'),
              t('backups.column.kind'),
              t('backups.column.state'),
              t('backups.column.size'),
              t('backups.column.took'),
              t('backups.column.where'),
            ]}
          >
            {data.backups.map((b) => (
              <BackupRow key={b._id} backup={b} />
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}

function BackupRow({ backup: b }: { backup: AdminBackup }) {
  const { t } = useTranslation('admin');
  const trigger = { manual: t('backups.trigger.manual'), scheduled: t('backups.trigger.scheduled'), 'before-migration': t('backups.trigger.beforeMigration') };
  const status = { running: t('backups.status.running'), ok: t('backups.status.ok'), failed: t('backups.status.failed') };
  return (
    <tr>
      <Cell>{formatWhen(b.startedAt)}</Cell>
      <Cell>{trigger[b.trigger]}</Cell>
      <Cell>
        <Badge tone={STATUS_TONE[b.status]}>{status[b.status]}</Badge>
        {b.removed && <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">{t('backups.removed')}</p>}
      </Cell>
      <Cell>{b.bytes === null ? '—' : formatBytes(b.bytes)}</Cell>
      <Cell>{b.tookMs === null ? '—' : formatDuration(b.tookMs)}</Cell>
      {b.status === 'failed' ? (
        <Cell className="max-w-96 break-words text-red-700 dark:text-red-300">{b.error ?? t('backups.status.failed')}</Cell>
      ) : (
        <Cell className="max-w-96 break-all font-mono text-xs">{b.path}</Cell>
      )}
    </tr>
  );
}
