import type { Passkey } from '@reelhouse/contract';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/dialog';
import { KeyIcon } from '@/components/ui/icons';
import { Button, InlineMessage, Spinner } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { formatDate, timeAgo } from '@/lib/format';
import { passkeysSupported, useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys.api';

const day = (iso: string) => formatDate(iso, { day: 'numeric', month: 'short', year: 'numeric' });
const cancelled = (err: unknown) => err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');

function PasskeyRow({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
  const { t } = useTranslation('passkeys');
  return (
    <li className="flex items-start gap-3 p-4 sm:gap-4" data-testid="passkey">
      <span className="mt-0.5 rounded-full bg-neutral-100 p-2 text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">
        <KeyIcon width={20} height={20} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium text-neutral-900 dark:text-neutral-50">{passkey.name}</p>
        <p className="text-sm text-neutral-500 dark:text-neutral-400">
          <Trans t={t} i18nKey="row.added" values={{ date: day(passkey.createdAt) }} components={{ time: <time dateTime={passkey.createdAt} /> }} />
          {' · '}
          {passkey.lastUsedAt ? (
            <Trans t={t} i18nKey="row.lastUsed" values={{ ago: timeAgo(passkey.lastUsedAt) }} components={{ time: <time dateTime={passkey.lastUsedAt} /> }} />
          ) : (
            t('row.neverUsed')
          )}
        </p>
      </div>
      <Button size="sm" onClick={onRemove} aria-label={t('row.removeLabel', { name: passkey.name })}>
        {t('remove')}
      </Button>
    </li>
  );
}

/** The account's passkeys: adding one with the browser's prompt, and removing one. */
export function PasskeyList({ notify }: { notify: (message: string, kind: 'success' | 'error') => void }) {
  const { t } = useTranslation('passkeys');
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<Passkey | null>(null);

  async function onAdd() {
    try {
      const added = await add.mutateAsync(undefined);
      notify(t('added', { name: added.name }), 'success');
    } catch (err) {
      if (!cancelled(err)) notify(errorMessage(err, t('addFailed')), 'error');
    }
  }

  async function onRemove() {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing._id);
      notify(t('removed', { name: removing.name }), 'success');
    } catch (err) {
      notify(errorMessage(err, t('removeFailed')), 'error');
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby="passkeys-heading" className="mb-10 flex flex-col gap-4">
      <h2 id="passkeys-heading" className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">
        {t('title')}
      </h2>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('intro')}</p>
      {passkeys.isPending ? (
        <Spinner label={t('loading')} />
      ) : passkeys.isError ? (
        <InlineMessage>{errorMessage(passkeys.error, t('loadFailed'))}</InlineMessage>
      ) : passkeys.data.length > 0 ? (
        <ul
          aria-label={t('title')}
          className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
        >
          {passkeys.data.map((p) => (
            <PasskeyRow key={p._id} passkey={p} onRemove={() => setRemoving(p)} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">{t('empty')}</p>
      )}
      {passkeysSupported() ? (
        <Button variant="primary" className="self-start" disabled={add.isPending} onClick={() => void onAdd()}>
          {add.isPending ? t('waitingForDevice') : t('add')}
        </Button>
      ) : (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">{t('unsupported')}</p>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('removeDialog.title')}
        message={t('removeDialog.message', { name: removing?.name ?? '' })}
        confirmLabel={t('remove')}
        busy={remove.isPending}
        onConfirm={() => void onRemove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
