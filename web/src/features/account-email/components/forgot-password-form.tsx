import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { forgotPassword } from '../api/account-email.api';

export function ForgotPasswordForm() {
  const { t } = useTranslation('accountEmail');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim()) return setError(t('forgot.emailRequired'));
    setBusy(true);
    setError(null);
    try {
      await forgotPassword(email.trim());
      setSent(true);
    } catch (err) {
      setError(errorMessage(err, t('somethingWentWrong')));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="flex flex-col gap-4 text-center">
        <InlineMessage kind="success">{t('forgot.sent')}</InlineMessage>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('forgot.followLink')}</p>
        <Link to="/login" className="text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
          {t('forgot.backToLogIn')}
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('forgot.intro')}</p>
      {error && <InlineMessage>{error}</InlineMessage>}
      <TextField label={t('forgot.email')} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? t('sending') : t('forgot.submit')}
      </Button>
      <Link to="/login" className="text-center text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
        {t('forgot.backToLogIn')}
      </Link>
    </form>
  );
}
