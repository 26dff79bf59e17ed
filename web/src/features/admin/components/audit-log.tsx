import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/primitives';
import { useAuditLog } from '../api/admin.api';
import { formatWhen } from '../lib/format';
import { Badge, Cell, ErrorText, Pager, Section, Table } from './admin-ui';

/** Who did what to which item, when and why: newest first. */
export function AuditLog() {
  const { t } = useTranslation('admin');
  const [pageNumber, setPage] = useState(1);
  const { data, error, isPending } = useAuditLog(pageNumber);
  return (
    <Section title={t('audit.title')}>
      <ErrorText error={error} />
      {isPending ? (
        <Spinner />
      ) : (
        <>
          <Table label={t('audit.title')} head={[t('audit.when'), t('audit.who'), t('audit.action'), t('audit.item'), t('audit.why'), t('audit.change')]}>
            {data?.entries.map((e) => (
              <tr key={e._id}>
                <Cell className="whitespace-nowrap">{formatWhen(e.createdAt)}</Cell>
                <Cell>@{e.actor.username}</Cell>
                <Cell>
                  <Badge>{e.action}</Badge>
                </Cell>
                <Cell className="text-xs">
                  <span className="text-neutral-500">{e.target.type}</span> <span className="font-mono">{e.target.id}</span>
                </Cell>
                <Cell className="max-w-64">{e.reason ?? '—'}</Cell>
                <Cell className="max-w-80 break-words font-mono text-xs text-neutral-600 dark:text-neutral-400">{describe(e.details)}</Cell>
              </tr>
            ))}
          </Table>
          {data && data.entries.length === 0 && <p className="py-6 text-center text-sm text-neutral-500">{t('audit.empty')}</p>}
          {data && <Pager page={data.currentPage} totalPages={data.totalPages} onPage={setPage} />}
        </>
      )}
    </Section>
  );
}

/** `{role: {from: 'user', to: 'moderator'}}` reads as "from user to moderator"; anything else as compact JSON. */
export function describe(details: Record<string, unknown>): string {
  const { from, to } = details as { from?: unknown; to?: unknown };
  if (from !== undefined && to !== undefined && typeof from !== 'object' && typeof to !== 'object') return `${String(from)} → ${String(to)}`;
  const s = JSON.stringify(details);
  return s === '{}' ? '—' : s;
}
