import { useTranslation } from 'react-i18next';
import { useInstance } from '@/features/instance/api/instance.api';

/** In the admin overview: a site without mail offers no password resets or address checks. */
export function MailStatus() {
  const { t } = useTranslation('accountEmail');
  const email = useInstance().data?.email;
  if (!email || email.enabled) return null;
  return (
    <p className="mb-4 rounded-xl border border-neutral-200 bg-neutral-50 px-4 py-3 text-sm text-neutral-700 dark:border-neutral-800 dark:bg-neutral-900 dark:text-neutral-300">
      {t('mailStatus.notConfigured')}
    </p>
  );
}
