import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { isApiError, errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { signIn } from '../api/auth.api';
import { AuthCard } from './auth-card';
import { TwoFactorStep } from './two-factor-step';

/**
 * `passkey`: another way to sign in, shown under the form (the page gives it); `children` go under
 * the log-in button (the page's forgotten-password help); `providers`: single sign-on, above the form.
 * With `passwordForAdminsOnly` (the site signs people in through its providers alone) the form
 * waits behind a disclosure, for the admins who keep their passwords.
 */
export function LoginForm({
  passkey,
  providers,
  passwordForAdminsOnly = false,
  children,
}: { passkey?: ReactNode; providers?: ReactNode; passwordForAdminsOnly?: boolean; children?: ReactNode } = {}) {
  const { t } = useTranslation('auth');
  const { dispatch, loading, error } = useAuth();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [rejected, setRejected] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  // Set once the password was right on an account that also asks for a code.
  const [codeStep, setCodeStep] = useState<{ error: string | null } | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errs: typeof fieldErrors = {};
    if (!email.trim()) errs.email = t('emailRequired');
    if (!password) errs.password = t('passwordRequired');
    setFieldErrors(errs);
    if (errs.email || errs.password) return;
    setRejected(false);
    await attempt();
  }

  async function attempt(second: { code: string } | { recoveryCode: string } | undefined = undefined) {
    dispatch({ type: 'login-start' });
    try {
      const result = await signIn(email.trim(), password, second);
      if ('twoFactorRequired' in result) {
        dispatch({ type: 'login-failure', error: null });
        setCodeStep({ error: null });
        return;
      }
      queryClient.clear();
      dispatch({ type: 'login-success', user: result.user });
    } catch (err) {
      if (second) {
        dispatch({ type: 'login-failure', error: null });
        setCodeStep({ error: errorMessage(err, t('somethingWentWrong')) });
        return;
      }
      // A 401 (wrong credentials) is silent; anything else is shown as an error.
      if (isApiError(err, 401)) {
        dispatch({ type: 'login-failure', error: null });
        setRejected(true);
        passwordRef.current?.focus();
      } else {
        dispatch({ type: 'login-failure', error: errorMessage(err, t('somethingWentWrong')) });
      }
    }
  }

  if (codeStep)
    return (
      <AuthCard title={t('twoFactorTitle')}>
        <TwoFactorStep busy={loading} error={codeStep.error} onSubmit={(second) => void attempt(second)} onBack={() => setCodeStep(null)} />
      </AuthCard>
    );

  const form = (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {error && <InlineMessage>{t('login.error', { error })}</InlineMessage>}
      <TextField
        label={t('email')}
        type="email"
        autoComplete="username webauthn"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldErrors.email}
        required
      />
      <TextField
        ref={passwordRef}
        label={t('password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => {
          setPassword(e.target.value);
          setRejected(false);
        }}
        aria-invalid={rejected || undefined}
        error={fieldErrors.password}
        required
      />
      <Button type="submit" variant="primary" disabled={loading}>
        {loading ? t('login.loggingIn') : t('login.submit')}
      </Button>
      {children}
      {passkey}
    </form>
  );

  return (
    <AuthCard title={t('logIn')}>
      <div className="flex flex-col gap-4">
        {providers}
        {passwordForAdminsOnly ? (
          <details className="rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
            <summary className="cursor-pointer text-sm font-medium text-neutral-700 dark:text-neutral-300">{t('login.adminsWithPassword')}</summary>
            <div className="mt-4">{form}</div>
          </details>
        ) : (
          form
        )}
        <p className="text-center text-sm text-neutral-600 dark:text-neutral-400">
          <Trans
            t={t}
            i18nKey="login.noAccount"
            components={{ a: <Link to="/signup" className="font-medium text-rose-600 hover:underline dark:text-rose-400" /> }}
          />
        </p>
      </div>
    </AuthCard>
  );
}
