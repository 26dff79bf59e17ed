import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { DEMO_EMAIL, DEMO_PASSWORD, login } from '../api/auth.api';
import { AuthCard } from './auth-card';

export function DemoLoginForm() {
  const { t } = useTranslation('auth');
  const { dispatch } = useAuth();
  const queryClient = useQueryClient();
  const [agreed, setAgreed] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!agreed) {
      setMessage(t('demo.mustAgree'));
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const user = await login(DEMO_EMAIL, DEMO_PASSWORD);
      queryClient.clear();
      dispatch({ type: 'login-success', user });
    } catch (err) {
      setMessage(t('demo.failed', { error: errorMessage(err, t('somethingWentWrong')) }));
      setBusy(false);
    }
  }

  return (
    <AuthCard title={t('demo.title')}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <div className="rounded-xl bg-neutral-50 p-4 text-sm leading-6 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
          <h2 className="mb-2 font-semibold text-neutral-900 dark:text-neutral-100">{t('demo.guidelines')}</h2>
          <ul className="list-disc space-y-1 ps-5">
            <li>{t('demo.rules.shared')}</li>
            <li>{t('demo.rules.respectful')}</li>
            <li>{t('demo.rules.rights')}</li>
            <li>{t('demo.rules.removed')}</li>
            <li>{t('demo.rules.locked')}</li>
          </ul>
        </div>
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} className="mt-0.5 h-4 w-4 accent-rose-600" />
          <span>{t('demo.agree')}</span>
        </label>
        {message && <InlineMessage>{message}</InlineMessage>}
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? t('demo.signingIn') : t('demo.proceed')}
        </Button>
      </form>
    </AuthCard>
  );
}
