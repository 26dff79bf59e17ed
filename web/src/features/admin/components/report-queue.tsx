import type { ModerationBody, ReportGroup } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, Spinner, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { useModerate, useReports } from '../api/admin.api';
import { formatWhen } from '../lib/format';
import { Badge, ErrorText, Section } from './admin-ui';

const STATES = ['open', 'resolved', 'dismissed'] as const;

/** The names of the reasons reports give (and of an owner's appeal). */
function useReasonLabels(): Record<string, string> {
  const { t } = useTranslation('admin');
  return {
    spam: t('reports.reason.spam'),
    harassment: t('reports.reason.harassment'),
    sexual: t('reports.reason.sexual'),
    violence: t('reports.reason.violence'),
    copyright: t('reports.reason.copyright'),
    other: t('reports.reason.other'),
    appeal: t('reports.reason.appeal'),
  };
}

/** Open reports grouped by item, with what a moderator needs to judge it and the actions they take. */
export function ReportQueue() {
  const { t } = useTranslation('admin');
  const [state, setState] = useState<(typeof STATES)[number]>('open');
  const stateLabel = { open: t('reports.state.open'), resolved: t('reports.state.resolved'), dismissed: t('reports.state.dismissed') };
  const empty = { open: t('reports.empty.open'), resolved: t('reports.empty.resolved'), dismissed: t('reports.empty.dismissed') };
  const { data, error, isPending } = useReports(state);
  return (
    <Section
      title={t('reports.title')}
      actions={
        <div role="group" aria-label={t('reports.stateFilter')} className="flex gap-1 rounded-full bg-neutral-100 p-1 dark:bg-neutral-800">
          {STATES.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={state === s}
              onClick={() => setState(s)}
              className={cn(
                'rounded-full px-3 py-1 text-sm font-medium capitalize',
                state === s ? 'bg-white text-neutral-900 shadow-sm dark:bg-neutral-950 dark:text-white' : 'text-neutral-600 dark:text-neutral-400',
              )}
            >
              {stateLabel[s]}
            </button>
          ))}
        </div>
      }
    >
      <ErrorText error={error} />
      {isPending ? (
        <Spinner />
      ) : data?.groups.length === 0 ? (
        <p className="py-6 text-center text-sm text-neutral-500">{empty[state]}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {data?.groups.map((g) => (
            <ReportCard key={`${g.targetType}:${g.targetId}`} group={g} open={state === 'open'} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ReportCard({ group: g, open }: { group: ReportGroup; open: boolean }) {
  const { t } = useTranslation('admin');
  const reasonLabel = useReasonLabels();
  const actionDone = {
    dismiss: t('reports.done.dismiss'),
    hide: t('reports.done.hide'),
    restore: t('reports.done.restore'),
    delete: t('reports.done.delete'),
    ban: t('reports.done.ban'),
  };
  const targetLabel = { video: t('reports.target.video'), comment: t('reports.target.comment'), channel: t('reports.target.channel') };
  const [note, setNote] = useState('');
  const moderate = useModerate();
  const toast = useToast();
  const p = g.preview;
  const act = (action: ModerationBody['action']) =>
    moderate.mutate(
      { reportId: g.reports[0]!._id, body: { action, note } },
      {
        onSuccess: () => toast.show(actionDone[action], 'success'),
        onError: (e) => toast.show(e.message, 'error'),
      },
    );
  const isVideo = g.targetType === 'video';
  return (
    <li aria-label={t('reports.of', { title: p.title })} className="rounded-xl border border-neutral-200 p-4 dark:border-neutral-800">
      <div className="flex flex-wrap gap-4">
        {p.thumbnail && <img src={p.thumbnail} alt="" className="aspect-video w-40 rounded-lg bg-neutral-200 object-cover dark:bg-neutral-800" />}
        <div className="min-w-60 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge>{targetLabel[g.targetType]}</Badge>
            <Badge tone="bad">{t('reports.count', { count: g.count, formatted: formatNumber(g.count) })}</Badge>
            {Object.entries(g.reasons).map(([r, n]) => (
              <Badge key={r} tone={r === 'appeal' ? 'info' : 'warn'}>
                {t('reports.reasonTimes', { reason: reasonLabel[r] ?? r, n })}
              </Badge>
            ))}
            {p.hidden && <Badge tone="warn">{t('reports.hidden')}</Badge>}
            {!p.exists && <Badge>{t('reports.deleted')}</Badge>}
          </div>
          <p className="mt-2 font-medium text-neutral-900 dark:text-neutral-100">
            {isVideo && p.exists ? (
              <Link className="hover:underline" to={`/video/${g.targetId}`}>
                {p.title}
              </Link>
            ) : (
              p.title
            )}
          </p>
          {p.text && <p className="mt-1 line-clamp-3 text-sm text-neutral-600 dark:text-neutral-400">{p.text}</p>}
          {p.owner && (
            <p className="mt-1 text-xs text-neutral-500">
              {p.owner.banned ? t('reports.byBanned', { username: p.owner.username }) : t('reports.by', { username: p.owner.username })}
            </p>
          )}
          {p.hidden && (
            <p className="mt-1 text-xs text-neutral-500">
              {p.hidden.appeal
                ? t('reports.takenDownAppeal', { reason: p.hidden.reason, appeal: p.hidden.appeal })
                : t('reports.takenDown', { reason: p.hidden.reason })}
            </p>
          )}
        </div>
      </div>
      <ul className="mt-3 flex flex-col gap-1 border-t border-neutral-200 pt-3 text-sm dark:border-neutral-800">
        {g.reports.map((r) => (
          <li key={r._id} className="text-neutral-700 dark:text-neutral-300">
            <span className="font-medium">@{r.reporter.username}</span> ·{' '}
            {r.note ? t('reports.reasonNote', { reason: reasonLabel[r.reason] ?? r.reason, note: r.note }) : (reasonLabel[r.reason] ?? r.reason)}{' '}
            <span className="text-xs text-neutral-500">{formatWhen(r.createdAt)}</span>
            {r.resolution && <span className="text-xs text-neutral-500"> · {r.resolution}</span>}
          </li>
        ))}
      </ul>
      {open && (
        <div className="mt-3 flex flex-wrap items-end gap-2">
          <TextField className="min-w-64 flex-1" label={t('reports.note')} value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
          <Button size="sm" disabled={moderate.isPending} onClick={() => act('dismiss')}>
            {t('reports.action.dismiss')}
          </Button>
          {isVideo && !p.hidden && p.exists && (
            <Button size="sm" variant="danger" disabled={moderate.isPending} onClick={() => act('hide')}>
              {t('reports.action.hide')}
            </Button>
          )}
          {isVideo && p.hidden && (
            <Button size="sm" variant="primary" disabled={moderate.isPending} onClick={() => act('restore')}>
              {t('reports.action.restore')}
            </Button>
          )}
          {g.targetType !== 'channel' && p.exists && (
            <Button size="sm" variant="danger" disabled={moderate.isPending} onClick={() => act('delete')}>
              {t('reports.action.delete')}
            </Button>
          )}
          {p.owner && !p.owner.banned && (
            <Button size="sm" variant="danger" disabled={moderate.isPending} onClick={() => act('ban')}>
              {t('reports.action.ban')}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
