import type { FederationBlock } from '@reelhouse/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button, Spinner } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useAdminNames, useFederationBlocks, useUnblockServer } from '../api/federation.api';
import { formatWhen } from '../lib/format';
import { BlockServerForm } from './block-server-form';
import { Cell, ErrorText, Section, Table } from './admin-ui';

/** The remote servers this site will not federate with: a form to block one, and each block with an unblock. */
export function AdminFederation() {
  const { t } = useTranslation('admin');
  const blocks = useFederationBlocks();
  const names = useAdminNames();
  const unblock = useUnblockServer();
  const toast = useToast();
  const field = useRef<HTMLInputElement>(null);
  const [asking, setAsking] = useState<string | null>(null);
  // An unblock takes its row away, and with it the button the dialog would give focus back to: once
  // the dialog has closed (its effect runs before this one), focus goes to the field instead.
  const refocus = useRef(false);
  useEffect(() => {
    if (asking !== null || !refocus.current) return;
    refocus.current = false;
    field.current?.focus();
  }, [asking]);

  const confirm = (domain: string) =>
    unblock.mutate(domain, {
      onSuccess: () => toast.show(t('federation.unblocked', { domain }), 'success'),
      onError: (err) => toast.show(isApiError(err, 404) ? t('federation.notBlocked', { domain }) : errorMessage(err, t('somethingWentWrong')), 'error'),
      onSettled: () => {
        refocus.current = true;
        setAsking(null);
      },
    });

  return (
    <>
      <Section title={t('federation.blockTitle')}>
        <p className="mb-4 max-w-2xl text-sm text-neutral-600 dark:text-neutral-400">{t('federation.explanation')}</p>
        <BlockServerForm fieldRef={field} />
      </Section>
      <Section title={t('federation.title')}>
        {blocks.isPending || names.isPending ? (
          <Spinner />
        ) : !blocks.data ? (
          <ErrorText error={blocks.error} />
        ) : blocks.data.blocks.length === 0 ? (
          <p className="text-sm text-neutral-500 dark:text-neutral-400">{t('federation.empty')}</p>
        ) : (
          <Table label={t('federation.title')} head={[t('federation.column.server'), t('federation.column.blockedBy'), t('federation.column.blockedOn'), '']}>
            {blocks.data.blocks.map((b) => (
              <BlockRow key={b.domain} block={b} blockedBy={blockerName(b, names.data)} onUnblock={() => setAsking(b.domain)} />
            ))}
          </Table>
        )}
      </Section>
      <ConfirmDialog
        open={asking !== null}
        title={t('federation.confirmTitle', { domain: asking ?? '' })}
        message={t('federation.confirmMessage', { domain: asking ?? '' })}
        confirmLabel={t('federation.confirm')}
        busy={unblock.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && confirm(asking)}
      />
    </>
  );
}

function BlockRow({ block, blockedBy, onUnblock }: { block: FederationBlock; blockedBy: string | null; onUnblock: () => void }) {
  const { t } = useTranslation('admin');
  // Lines as tall as the Unblock button, so that the row's words sit level with its label.
  return (
    <tr>
      <Cell className="font-medium leading-8">{block.domain}</Cell>
      <Cell className="leading-8">{blockedBy ?? <span className="text-neutral-500 dark:text-neutral-400">{t('federation.deletedAccount')}</span>}</Cell>
      <Cell className="whitespace-nowrap leading-8">{formatWhen(block.createdAt)}</Cell>
      <Cell className="text-end">
        <Button size="sm" onClick={onUnblock} aria-label={t('federation.unblockLabel', { domain: block.domain })}>
          {t('federation.unblock')}
        </Button>
      </Cell>
    </tr>
  );
}

/**
 * "@name" of the admin who blocked, null once their account is gone; the account's id when it is no
 * longer among the admins (or the admins could not be read).
 */
function blockerName(block: FederationBlock, names: Map<string, string> | undefined): string | null {
  if (block.blockedBy === null) return null;
  const name = names?.get(block.blockedBy);
  return name ? `@${name}` : block.blockedBy;
}
