import { MIN_PASSWORD_LENGTH } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { resetPassword } from '../api/account-email.api';

export function ResetPasswordForm() {
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
    if (password.length < MIN_PASSWORD_LENGTH) errs.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    if (confirm !== password) errs.confirm = 'Passwords do not match';
    setFieldErrors(errs);
    if (errs.password || errs.confirm) return;
    setBusy(true);
    setError(null);
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (!token) return <InlineMessage>This page needs the link from the mail. Ask for a new one from the log-in page.</InlineMessage>;
  if (done) {
    return (
      <div className="flex flex-col gap-4 text-center">
        <InlineMessage kind="success">Your password is changed, and every device was signed out.</InlineMessage>
        <Link to="/login" className="text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
          Log in with the new password
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
            Ask for a new link
          </Link>
        </InlineMessage>
      )}
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
        required
      />
      <TextField
        label="New password again"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={fieldErrors.confirm}
        required
      />
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? 'Saving…' : 'Set the new password'}
      </Button>
    </form>
  );
}
