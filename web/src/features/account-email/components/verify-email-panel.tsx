import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { InlineMessage, Spinner } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { verifyEmail } from '../api/account-email.api';

/** Confirms the address of the link it was opened with, once, and says how it went. */
export function VerifyEmailPanel() {
  const { t } = useTranslation('accountEmail');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, dispatch } = useAuth();
  const [state, setState] = useState<{ done: boolean; error: string | null; email?: string }>({ done: false, error: null });
  const asked = useRef(false);

  useEffect(() => {
    if (!token || asked.current) return;
    // A link works once: React's development double effects must not spend it twice.
    asked.current = true;
    verifyEmail(token).then(
      (confirmed) => {
        setState({ done: true, error: null, email: confirmed.email });
        if (user?._id === confirmed._id) dispatch({ type: 'set-user', user: confirmed });
      },
      (err: unknown) => setState({ done: true, error: errorMessage(err, t('somethingWentWrong')) }),
    );
  }, [token, user, dispatch, t]);

  if (!token) return <InlineMessage>{t('verify.needsLink')}</InlineMessage>;
  if (!state.done) return <Spinner label={t('verify.confirming')} />;
  return (
    <div className="flex flex-col gap-4 text-center">
      {state.error ? (
        <InlineMessage>{state.error}</InlineMessage>
      ) : (
        <InlineMessage kind="success">{t('verify.confirmed', { email: state.email })}</InlineMessage>
      )}
      <Link to={user ? '/' : '/login'} className="text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
        {user ? t('verify.goHome') : t('verify.logIn')}
      </Link>
    </div>
  );
}
