import type { ModerationBody, ReportGroup } from '@reelhouse/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Spinner, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { cn } from '@/lib/cn';
import { useModerate, useReports } from '../api/admin.api';
import { formatWhen } from '../lib/format';
import { Badge, ErrorText, Section } from './admin-ui';

const STATES = ['open', 'resolved', 'dismissed'] as const;
const REASON_LABEL: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment or hate',
  sexual: 'Sexual content',
  violence: 'Violence',
  copyright: 'Copyright',
  other: 'Other',
  appeal: 'Appeal',
};

/** Open reports grouped by item, with what a moderator needs to judge it and the actions they take. */
export function ReportQueue() {
  const [state, setState] = useState<(typeof STATES)[number]>('open');
  const { data, error, isPending } = useReports(state);
  return (
    <Section
      title="Reports"
      actions={
        <div role="group" aria-label="Report state" className="flex gap-1 rounded-full bg-neutral-100 p-1 dark:bg-neutral-800">
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
              {s}
            </button>
          ))}
        </div>
      }
    >
      <ErrorText error={error} />
      {isPending ? (
        <Spinner />
      ) : data?.groups.length === 0 ? (
        <p className="py-6 text-center text-sm text-neutral-500">No {state} reports.</p>
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
  const [note, setNote] = useState('');
  const moderate = useModerate();
  const toast = useToast();
  const p = g.preview;
  const act = (action: ModerationBody['action']) =>
    moderate.mutate(
      { reportId: g.reports[0]!._id, body: { action, note } },
      {
        onSuccess: () => toast.show(`Done: ${action}`, 'success'),
        onError: (e) => toast.show(e.message, 'error'),
      },
    );
  const isVideo = g.targetType === 'video';
  return (
    <li aria-label={`Reports of ${p.title}`} className="rounded-xl border border-neutral-200 p-4 dark:border-neutral-800">
      <div className="flex flex-wrap gap-4">
        {p.thumbnail && <img src={p.thumbnail} alt="" className="aspect-video w-40 rounded-lg bg-neutral-200 object-cover dark:bg-neutral-800" />}
        <div className="min-w-60 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge>{g.targetType}</Badge>
            <Badge tone="bad">
              {g.count} {g.count === 1 ? 'report' : 'reports'}
            </Badge>
            {Object.entries(g.reasons).map(([r, n]) => (
              <Badge key={r} tone={r === 'appeal' ? 'info' : 'warn'}>
                {REASON_LABEL[r] ?? r} × {n}
              </Badge>
            ))}
            {p.hidden && <Badge tone="warn">hidden</Badge>}
            {!p.exists && <Badge>deleted</Badge>}
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
              by @{p.owner.username}
              {p.owner.banned && ' (banned)'}
            </p>
          )}
          {p.hidden && (
            <p className="mt-1 text-xs text-neutral-500">
              Taken down: {p.hidden.reason}
              {p.hidden.appeal && ` · Appeal: ${p.hidden.appeal}`}
            </p>
          )}
        </div>
      </div>
      <ul className="mt-3 flex flex-col gap-1 border-t border-neutral-200 pt-3 text-sm dark:border-neutral-800">
        {g.reports.map((r) => (
          <li key={r._id} className="text-neutral-700 dark:text-neutral-300">
            <span className="font-medium">@{r.reporter.username}</span> · {REASON_LABEL[r.reason] ?? r.reason}
            {r.note && <>: “{r.note}”</>} <span className="text-xs text-neutral-500">{formatWhen(r.createdAt)}</span>
            {r.resolution && <span className="text-xs text-neutral-500"> · {r.resolution}</span>}
          </li>
        ))}
      </ul>
      {open && (
        <div className="mt-3 flex flex-wrap items-end gap-2">
          <TextField
            className="min-w-64 flex-1"
            label="Note (the owner sees it when you hide; kept as the reason)"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={1000}
          />
          <Button size="sm" disabled={moderate.isPending} onClick={() => act('dismiss')}>
            Dismiss
          </Button>
          {isVideo && !p.hidden && p.exists && (
            <Button size="sm" variant="danger" disabled={moderate.isPending} onClick={() => act('hide')}>
              Hide
            </Button>
          )}
          {isVideo && p.hidden && (
            <Button size="sm" variant="primary" disabled={moderate.isPending} onClick={() => act('restore')}>
              Restore
            </Button>
          )}
          {g.targetType !== 'channel' && p.exists && (
            <Button size="sm" variant="danger" disabled={moderate.isPending} onClick={() => act('delete')}>
              Delete
            </Button>
          )}
          {p.owner && !p.owner.banned && (
            <Button size="sm" variant="danger" disabled={moderate.isPending} onClick={() => act('ban')}>
              Ban owner
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
