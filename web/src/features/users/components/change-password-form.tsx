import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { isApiError } from '@/lib/api-client';
import { changePassword } from '../api/users.api';

export function ChangePasswordForm() {
  const { t } = useTranslation('users');
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!oldPassword.trim() || !newPassword.trim()) {
      setMessage({ kind: 'error', text: t('password.allRequired') });
      return;
    }
    if (newPassword.length < MIN_PASSWORD_LENGTH) {
      setMessage({ kind: 'error', text: t('password.tooShort', { count: MIN_PASSWORD_LENGTH }) });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      await changePassword(oldPassword, newPassword);
      setOld('');
      setNew('');
      setMessage({ kind: 'success', text: t('password.changed') });
    } catch (err) {
      setMessage({
        kind: 'error',
        text: isApiError(err) && err.message === 'Old password is incorrect.' ? t('password.oldIncorrect') : t('password.failed'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-md flex-col gap-4">
      <TextField label={t('password.old')} type="password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOld(e.target.value)} />
      <TextField label={t('password.new')} type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNew(e.target.value)} />
      {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
      <Button type="submit" variant="primary" disabled={busy} className="self-start">
        {t('password.submit')}
      </Button>
    </form>
  );
}
