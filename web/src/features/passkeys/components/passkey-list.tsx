import type { Passkey } from '@reelhouse/contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { KeyIcon } from '@/components/ui/icons';
import { Button, InlineMessage, Spinner } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { timeAgo } from '@/lib/format';
import { passkeysSupported, useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys.api';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const cancelled = (err: unknown) => err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');

function PasskeyRow({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
  return (
    <li className="flex items-start gap-3 p-4 sm:gap-4" data-testid="passkey">
      <span className="mt-0.5 rounded-full bg-neutral-100 p-2 text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">
        <KeyIcon width={20} height={20} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium text-neutral-900 dark:text-neutral-50">{passkey.name}</p>
        <p className="text-sm text-neutral-500 dark:text-neutral-400">
          Added <time dateTime={passkey.createdAt}>{day(passkey.createdAt)}</time>
          {' · '}
          {passkey.lastUsedAt ? (
            <>
              Last used <time dateTime={passkey.lastUsedAt}>{timeAgo(passkey.lastUsedAt)}</time>
            </>
          ) : (
            'Never used'
          )}
        </p>
      </div>
      <Button size="sm" onClick={onRemove} aria-label={`Remove ${passkey.name}`}>
        Remove
      </Button>
    </li>
  );
}

/** The account's passkeys: adding one with the browser's prompt, and removing one. */
export function PasskeyList({ notify }: { notify: (message: string, kind: 'success' | 'error') => void }) {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<Passkey | null>(null);

  async function onAdd() {
    try {
      const added = await add.mutateAsync(undefined);
      notify(`Passkey added: ${added.name}`, 'success');
    } catch (err) {
      if (!cancelled(err)) notify(errorMessage(err, 'Could not add the passkey'), 'error');
    }
  }

  async function onRemove() {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing._id);
      notify(`Removed ${removing.name}`, 'success');
    } catch (err) {
      notify(errorMessage(err, 'Could not remove the passkey'), 'error');
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby="passkeys-heading" className="mb-10 flex flex-col gap-4">
      <h2 id="passkeys-heading" className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">
        Passkeys
      </h2>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Sign in with your fingerprint, face, screen lock or a security key instead of your password.
      </p>
      {passkeys.isPending ? (
        <Spinner label="Loading passkeys" />
      ) : passkeys.isError ? (
        <InlineMessage>{errorMessage(passkeys.error, 'Could not load your passkeys')}</InlineMessage>
      ) : passkeys.data.length > 0 ? (
        <ul aria-label="Passkeys" className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
          {passkeys.data.map((p) => (
            <PasskeyRow key={p._id} passkey={p} onRemove={() => setRemoving(p)} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">You have no passkeys yet.</p>
      )}
      {passkeysSupported() ? (
        <Button variant="primary" className="self-start" disabled={add.isPending} onClick={() => void onAdd()}>
          {add.isPending ? 'Waiting for your device…' : 'Add a passkey'}
        </Button>
      ) : (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">This browser cannot make passkeys.</p>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove passkey"
        message={`Remove ${removing?.name ?? 'this passkey'}? It can no longer be used to sign in; the copy on your device can then be deleted there too.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => void onRemove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
