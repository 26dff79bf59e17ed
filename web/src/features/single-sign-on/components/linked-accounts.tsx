import type { LinkedIdentity } from '@reelhouse/contract';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { ShieldIcon } from '@/components/ui/icons';
import { InlineMessage, Spinner, Button } from '@/components/ui/primitives';
import { useInstance } from '@/features/instance/api/instance.api';
import { errorMessage } from '@/lib/api-client';
import { timeAgo } from '@/lib/format';
import { providerUrl, ssoErrorIn, useLinkedIdentities, useUnlinkIdentity } from '../api/single-sign-on.api';

const linkClass =
  'inline-flex h-8 items-center justify-center rounded-full bg-neutral-100 px-3 text-sm font-medium text-neutral-900 hover:bg-neutral-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-rose-500 dark:bg-neutral-800 dark:text-neutral-100 dark:hover:bg-neutral-700';

function IdentityRow({ identity, onUnlink }: { identity: LinkedIdentity; onUnlink: () => void }) {
  const { t } = useTranslation('singleSignOn');
  return (
    <li className="flex items-start gap-3 p-4 sm:gap-4" data-testid="linked-account">
      <span className="mt-0.5 rounded-full bg-neutral-100 p-2 text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">
        <ShieldIcon width={20} height={20} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium text-neutral-900 dark:text-neutral-50">{identity.label}</p>
        <p className="break-words text-sm text-neutral-500 dark:text-neutral-400">
          {identity.email ? `${identity.email} · ` : ''}
          {identity.lastUsedAt ? (
            <Trans t={t} i18nKey="row.lastUsed" values={{ ago: timeAgo(identity.lastUsedAt) }} components={{ time: <time dateTime={identity.lastUsedAt} /> }} />
          ) : (
            <Trans t={t} i18nKey="row.linked" values={{ ago: timeAgo(identity.createdAt) }} components={{ time: <time dateTime={identity.createdAt} /> }} />
          )}
        </p>
      </div>
      <Button size="sm" onClick={onUnlink} aria-label={t('row.unlinkLabel', { provider: identity.label })}>
        {t('unlink')}
      </Button>
    </li>
  );
}

/**
 * The single sign-on providers linked to the account: linking one (a trip to the provider and
 * back to this page), and unlinking. Shown only where the site has providers.
 */
export function LinkedAccounts({ notify }: { notify: (message: string, kind: 'success' | 'error') => void }) {
  const { t } = useTranslation('singleSignOn');
  const location = useLocation();
  const providers = useInstance().data?.signInProviders ?? [];
  const identities = useLinkedIdentities();
  const unlink = useUnlinkIdentity();
  const [unlinking, setUnlinking] = useState<LinkedIdentity | null>(null);
  const refusal = ssoErrorIn(location.search);
  if (!providers.length && !identities.data?.length) return null;
  const linked = new Set(identities.data?.map((i) => i.provider));

  async function onUnlink() {
    if (!unlinking) return;
    try {
      await unlink.mutateAsync(unlinking._id);
      notify(t('unlinked', { provider: unlinking.label }), 'success');
    } catch (err) {
      notify(errorMessage(err, t('unlinkFailed')), 'error');
    } finally {
      setUnlinking(null);
    }
  }

  return (
    <section aria-labelledby="linked-accounts-heading" className="mb-10 flex flex-col gap-4">
      <h2 id="linked-accounts-heading" className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">
        {t('title')}
      </h2>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('intro')}</p>
      {refusal && <InlineMessage>{refusal}</InlineMessage>}
      {identities.isPending ? (
        <Spinner label={t('loading')} />
      ) : identities.isError ? (
        <InlineMessage>{errorMessage(identities.error, t('loadFailed'))}</InlineMessage>
      ) : identities.data.length > 0 ? (
        <ul
          aria-label={t('title')}
          className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
        >
          {identities.data.map((i) => (
            <IdentityRow key={i._id} identity={i} onUnlink={() => setUnlinking(i)} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">{t('empty')}</p>
      )}
      <div className="flex flex-wrap gap-2">
        {providers
          .filter((p) => !linked.has(p.name))
          .map((p) => (
            <a key={p.name} className={linkClass} href={providerUrl(p.name, { link: true, returnTo: location.pathname })}>
              {t('link', { provider: p.label })}
            </a>
          ))}
      </div>
      <ConfirmDialog
        open={unlinking !== null}
        title={t('unlinkDialog.title')}
        message={t('unlinkDialog.message', { provider: unlinking?.label ?? '' })}
        confirmLabel={t('unlink')}
        busy={unlink.isPending}
        onConfirm={() => void onUnlink()}
        onCancel={() => setUnlinking(null)}
      />
    </section>
  );
}
