import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { KeyIcon } from '@/components/ui/icons';
import { Button, InlineMessage } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { passkeysSupported, signInWithPasskey } from '../api/passkeys.api';

/** The browser says this when the person closes its prompt: not an error worth showing. */
const cancelled = (err: unknown) => err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');

/** "Sign in with a passkey": the browser's own prompt, no email or password typed. */
export function PasskeySignIn() {
  const { dispatch } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!passkeysSupported()) return null;

  async function onClick() {
    setBusy(true);
    setError(null);
    try {
      const user = await signInWithPasskey();
      queryClient.clear();
      dispatch({ type: 'login-success', user });
    } catch (err) {
      if (!cancelled(err)) setError(errorMessage(err, 'Could not sign in with a passkey'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-neutral-500 dark:text-neutral-400" aria-hidden="true">
        <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
        or
        <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
      </div>
      {error && <InlineMessage>{error}</InlineMessage>}
      <Button type="button" onClick={() => void onClick()} disabled={busy} className="inline-flex items-center justify-center gap-2">
        <KeyIcon width={18} height={18} />
        {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </Button>
    </div>
  );
}
