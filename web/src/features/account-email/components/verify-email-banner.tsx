import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useInstance } from '@/features/instance/api/instance.api';
import { resendVerification } from '../api/account-email.api';

/** For a signed-in account whose address is not confirmed yet, on a site that checks addresses. */
export function VerifyEmailBanner() {
  const { t } = useTranslation('accountEmail');
  const { user } = useAuth();
  const email = useInstance().data?.email;
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user || user.emailVerified || !email?.enabled || email.verification === 'off') return null;

  async function resend() {
    setBusy(true);
    try {
      await resendVerification();
      setNote(t('banner.newLinkSent'));
    } catch (err) {
      setNote(errorMessage(err, t('somethingWentWrong')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      role="status"
      className="mb-4 flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <span className="flex-1">{t('banner.confirm', { email: user.email })}</span>
      {note ? (
        <span>{note}</span>
      ) : (
        <Button size="sm" onClick={resend} disabled={busy}>
          {busy ? t('sending') : t('banner.resend')}
        </Button>
      )}
    </div>
  );
}
