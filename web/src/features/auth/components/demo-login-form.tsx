import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, InlineMessage } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { DEMO_EMAIL, DEMO_PASSWORD, login } from '../api/auth.api';
import { AuthCard } from './auth-card';

export function DemoLoginForm() {
  const { dispatch } = useAuth();
  const queryClient = useQueryClient();
  const [agreed, setAgreed] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!agreed) {
      setMessage('Please confirm that you have read and agree to the guidelines before proceeding.');
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const user = await login(DEMO_EMAIL, DEMO_PASSWORD);
      queryClient.clear();
      dispatch({ type: 'login-success', user });
    } catch (err) {
      setMessage(`Failed to login: ${errorMessage(err)}`);
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Demo account">
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <div className="rounded-xl bg-neutral-50 p-4 text-sm leading-6 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
          <h2 className="mb-2 font-semibold text-neutral-900 dark:text-neutral-100">Guidelines</h2>
          <ul className="list-disc space-y-1 pl-5">
            <li>The demo account is shared by every visitor: do not post anything personal.</li>
            <li>Be respectful in comments, titles and descriptions.</li>
            <li>Upload only videos you have the right to share.</li>
            <li>What you upload or write with the demo account is removed again after a while.</li>
            <li>The demo account cannot change its password or username, and cannot be deleted.</li>
          </ul>
        </div>
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} className="mt-0.5 h-4 w-4 accent-rose-600" />
          <span>I have read and agree to the guidelines</span>
        </label>
        {message && <InlineMessage>{message}</InlineMessage>}
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Proceed'}
        </Button>
      </form>
    </AuthCard>
  );
}
