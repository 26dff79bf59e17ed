import type { AdminBackup } from '@reelhouse/contract';
import { Button, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useAdminBackups, useStartBackup } from '../api/backups.api';
import { formatBytes, formatDuration, formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Figure, Section, Table, type Tone } from './admin-ui';

const TRIGGER = { manual: 'By hand', scheduled: 'Scheduled', 'before-migration': 'Before an upgrade' } as const;
const STATUS: Record<AdminBackup['status'], { label: string; tone: Tone }> = {
  running: { label: 'Running', tone: 'info' },
  ok: { label: 'Good', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
};

/** Backups: whether the site has a recent good one, when the next is due, and every recent run. */
export function AdminBackups() {
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
        title="Backups"
        actions={
          <Button
            disabled={start.isPending || running}
            onClick={() =>
              start.mutate(undefined, {
                onSuccess: () => toast.show('Backup started', 'success'),
                onError: (e) => toast.show(e.message, 'error'),
              })
            }
          >
            {running ? 'Backing up…' : 'Back up now'}
          </Button>
        }
      >
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <Figure
            label="Last good backup"
            value={lastGood ? formatWhen(lastGood.finishedAt ?? lastGood.startedAt) : 'None yet'}
            detail={lastGood ? `${formatBytes(lastGood.bytes ?? 0)} · took ${formatDuration(lastGood.tookMs ?? 0)}` : 'Take one now, or set BACKUP_CRON'}
          />
          <Figure
            label="Next scheduled"
            value={schedule.next ? formatWhen(schedule.next) : 'Not scheduled'}
            detail={schedule.cron ? `BACKUP_CRON ${schedule.cron} · keeps the last ${schedule.keep}` : 'Set BACKUP_CRON to take backups on a schedule'}
          />
          <Figure
            label="Written to"
            value={<span className="block break-all font-mono text-sm font-normal leading-5">{schedule.dir}</span>}
            detail="BACKUP_DIR, on the machine that takes them"
          />
        </div>
      </Section>
      <Section title="Recent backups">
        {data.backups.length === 0 ? (
          <p className="text-sm text-neutral-500">No backup has been taken yet.</p>
        ) : (
          <Table label="Recent backups" head={['Started', 'Kind', 'State', 'Size', 'Took', 'Where or why it failed']}>
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
  const status = STATUS[b.status];
  return (
    <tr>
      <Cell>{formatWhen(b.startedAt)}</Cell>
      <Cell>{TRIGGER[b.trigger]}</Cell>
      <Cell>
        <Badge tone={status.tone}>{status.label}</Badge>
        {b.removed && <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">Removed (beyond the kept number)</p>}
      </Cell>
      <Cell>{b.bytes === null ? '—' : formatBytes(b.bytes)}</Cell>
      <Cell>{b.tookMs === null ? '—' : formatDuration(b.tookMs)}</Cell>
      {b.status === 'failed' ? (
        <Cell className="max-w-96 break-words text-red-700 dark:text-red-300">{b.error ?? 'Failed'}</Cell>
      ) : (
        <Cell className="max-w-96 break-all font-mono text-xs">{b.path}</Cell>
      )}
    </tr>
  );
}
