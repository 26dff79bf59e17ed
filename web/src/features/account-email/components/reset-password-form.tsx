import { MIN_PASSWORD_LENGTH } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { resetPassword } from '../api/account-email.api';

export function ResetPasswordForm() {
  const { t } = useTranslation('accountEmail');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errs: typeof fieldErrors = {};
    if (password.length < MIN_PASSWORD_LENGTH) errs.password = t('reset.passwordTooShort', { count: MIN_PASSWORD_LENGTH });
    if (confirm !== password) errs.confirm = t('reset.passwordsDiffer');
    setFieldErrors(errs);
    if (errs.password || errs.confirm) return;
    setBusy(true);
    setError(null);
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (err) {
      setError(errorMessage(err, t('somethingWentWrong')));
    } finally {
      setBusy(false);
    }
  }

  if (!token) return <InlineMessage>{t('reset.needsLink')}</InlineMessage>;
  if (done) {
    return (
      <div className="flex flex-col gap-4 text-center">
        <InlineMessage kind="success">{t('reset.done')}</InlineMessage>
        <Link to="/login" className="text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
          {t('reset.logInWithNewPassword')}
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {error && (
        <InlineMessage>
          {error}{' '}
          <Link to="/forgot-password" className="underline">
            {t('reset.askForNewLink')}
          </Link>
        </InlineMessage>
      )}
      <TextField
        label={t('reset.newPassword')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
        required
      />
      <TextField
        label={t('reset.newPasswordAgain')}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={fieldErrors.confirm}
        required
      />
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? t('reset.saving') : t('reset.submit')}
      </Button>
    </form>
  );
}
