import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { InlineMessage } from '@/components/ui/primitives';
import { useInstance } from '@/features/instance/api/instance.api';
import { providerUrl, ssoErrorIn } from '../api/single-sign-on.api';

/**
 * "Sign in with …" for each single sign-on provider of the site, and the refusal a provider's
 * sign-in came back with. Links, not buttons: the browser leaves for the provider's own pages.
 */
export function ProviderButtons({ returnTo, divider = false }: { returnTo?: string; divider?: boolean }) {
  const { t } = useTranslation('singleSignOn');
  const providers = useInstance().data?.signInProviders ?? [];
  const refusal = ssoErrorIn(useLocation().search);
  if (!providers.length && !refusal) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="sign-in-providers">
      {refusal && <InlineMessage>{refusal}</InlineMessage>}
      {providers.map((p) => (
        <a
          key={p.name}
          href={providerUrl(p.name, { returnTo })}
          className="inline-flex h-10 items-center justify-center gap-2 rounded-full border border-neutral-300 bg-white px-4 text-sm font-medium text-neutral-900 transition-colors hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-rose-500 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800"
        >
          {t('signInWith', { provider: p.label })}
        </a>
      ))}
      {divider && providers.length > 0 && <OrDivider />}
    </div>
  );
}

/** The rule between the providers' buttons and the password form. */
function OrDivider() {
  const { t } = useTranslation('singleSignOn');
  return (
    <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-neutral-500 dark:text-neutral-400" aria-hidden="true">
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
      {t('or')}
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
    </div>
  );
}
