import type { User } from '@reelhouse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyIcon } from '@/components/ui/icons';
import { Button, InlineMessage } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { cancelPasskeyRequest, passkeyAutofillSupported, passkeysSupported, signInWithPasskey } from '../api/passkeys.api';

/** The browser says this when the person closes its prompt, or another request replaces it: not worth showing. */
const cancelled = (err: unknown) => err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');

/**
 * "Sign in with a passkey": the browser's own prompt, no email or password typed. Where the browser
 * can, the site's passkeys are also offered in the email field's suggestions (its autocomplete says
 * "webauthn"), waiting from the moment the page opens.
 */
export function PasskeySignIn() {
  const { t } = useTranslation('passkeys');
  const { dispatch } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const finish = useRef((user: User) => {
    queryClient.clear();
    dispatch({ type: 'login-success', user });
  });

  useEffect(() => {
    let live = true;
    void (async () => {
      if (!(await passkeyAutofillSupported()) || !live) return;
      try {
        const user = await signInWithPasskey({ autofill: true });
        if (live) finish.current(user);
      } catch (err) {
        // Only the site's refusal of a passkey that was picked is news; a browser that cannot offer
        // passkeys here (an IP address, say) just offers none.
        if (live && isApiError(err) && (err.status === 401 || err.status === 403)) setError(err.message);
      }
    })();
    return () => {
      live = false;
      cancelPasskeyRequest();
    };
  }, []);

  if (!passkeysSupported()) return null;

  async function onClick() {
    setBusy(true);
    setError(null);
    try {
      finish.current(await signInWithPasskey());
    } catch (err) {
      if (!cancelled(err)) setError(errorMessage(err, t('signIn.failed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-neutral-500 dark:text-neutral-400" aria-hidden="true">
        <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
        {t('signIn.or')}
        <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
      </div>
      {error && <InlineMessage>{error}</InlineMessage>}
      <Button type="button" onClick={() => void onClick()} disabled={busy} className="inline-flex items-center justify-center gap-2">
        <KeyIcon width={18} height={18} />
        {busy ? t('signIn.waiting') : t('signIn.button')}
      </Button>
    </div>
  );
}
