import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useInstance } from '@/features/instance/api/instance.api';
import { login, register } from '../api/auth.api';
import { IMAGE_ACCEPT, validateSignup, type SignupErrors } from '../api/signup-schema';
import { AuthCard } from './auth-card';

async function defaultImage(path: string, name: string): Promise<File> {
  const res = await fetch(path);
  const blob = await res.blob();
  return new File([blob], name, { type: blob.type || 'image/png' });
}

/**
 * `providers`: the single sign-on buttons, above the form (with a rule under them when the form
 * follows). Where the site signs people up only through its providers, they are all there is.
 */
export function SignupForm({ providers }: { providers?: (divider: boolean) => ReactNode } = {}) {
  const { t } = useTranslation('auth');
  const { dispatch } = useAuth();
  const queryClient = useQueryClient();
  const [fields, setFields] = useState({ fullName: '', email: '', password: '', confirmPassword: '', username: '' });
  const [avatar, setAvatar] = useState<File | null>(null);
  const [coverImage, setCoverImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [awaitingApproval, setAwaitingApproval] = useState(false);
  // Where addresses must be confirmed before signing in, the new account waits for its link.
  const [awaitingMail, setAwaitingMail] = useState(false);
  const instance = useInstance().data;

  const set = (k: keyof typeof fields) => (e: React.ChangeEvent<HTMLInputElement>) => setFields((f) => ({ ...f, [k]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errs = validateSignup({ ...fields, avatar, coverImage });
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      const form = new FormData();
      form.append('fullName', fields.fullName.trim());
      form.append('email', fields.email.trim());
      form.append('password', fields.password);
      form.append('username', fields.username.trim().toLowerCase());
      // No image chosen: the bundled defaults are sent instead.
      form.append('avatar', avatar ?? (await defaultImage('/default-avatar.png', 'avatar.png')));
      form.append('coverImage', coverImage ?? (await defaultImage('/default-cover.webp', 'cover.webp')));
      const created = await register(form);
      if (created.approvalPending) {
        setAwaitingApproval(true);
        setBusy(false);
        return;
      }
      if (!created.emailVerified && instance?.email.verification === 'required') {
        setAwaitingMail(true);
        setBusy(false);
        return;
      }
      const user = await login(fields.email.trim(), fields.password);
      queryClient.clear();
      dispatch({ type: 'login-success', user });
    } catch (err) {
      setServerError(isApiError(err, 409) ? err.message : errorMessage(err, t('signup.failed')));
      setBusy(false);
    }
  }

  const loginLinkClass = 'font-medium text-rose-600 hover:underline dark:text-rose-400';
  const loginLink = (
    <Link to="/login" className={loginLinkClass}>
      {t('logIn')}
    </Link>
  );
  const haveAccount = <Trans t={t} i18nKey="signup.haveAccount" components={{ a: <Link to="/login" className={loginLinkClass} /> }} />;
  if (instance?.signupMode === 'closed') {
    return (
      <AuthCard title={t('signup.closedTitle')}>
        <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
          {t('signup.closed', { name: instance.name })}
        </p>
        <p className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">{haveAccount}</p>
      </AuthCard>
    );
  }
  if (awaitingMail) {
    return (
      <AuthCard title={t('signup.createdTitle')}>
        <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
          {t('signup.mailed', { email: fields.email.trim() })}
        </p>
        <p className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">{loginLink}</p>
      </AuthCard>
    );
  }
  if (awaitingApproval) {
    return (
      <AuthCard title={t('signup.createdTitle')}>
        <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
          {t('signup.awaitingApproval')}
        </p>
        <p className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">{loginLink}</p>
      </AuthCard>
    );
  }

  if (instance?.passwordSignIn === false) {
    return (
      <AuthCard title={t('signup.title')}>
        <div className="flex flex-col gap-4">
          <p className="text-sm text-neutral-700 dark:text-neutral-300">{t('signup.singleSignOnOnly', { name: instance.name })}</p>
          {providers?.(false)}
          <p className="text-center text-sm text-neutral-600 dark:text-neutral-400">{haveAccount}</p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('signup.title')}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {providers?.(true)}
        {serverError && <InlineMessage>{serverError}</InlineMessage>}
        {instance?.signupMode === 'approval' && <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('signup.approvalNote')}</p>}
        <TextField label={t('signup.fullName')} autoComplete="name" value={fields.fullName} onChange={set('fullName')} error={errors.fullName} required />
        <TextField label={t('email')} type="email" autoComplete="email" value={fields.email} onChange={set('email')} error={errors.email} required />
        <TextField label={t('signup.username')} autoComplete="username" value={fields.username} onChange={set('username')} error={errors.username} required />
        <TextField
          label={t('password')}
          type="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={set('password')}
          error={errors.password}
          required
        />
        <TextField
          label={t('signup.confirmPassword')}
          type="password"
          autoComplete="new-password"
          value={fields.confirmPassword}
          onChange={set('confirmPassword')}
          error={errors.confirmPassword}
          required
        />
        <TextField
          label={t('signup.avatar')}
          type="file"
          accept={IMAGE_ACCEPT}
          onChange={(e) => setAvatar(e.target.files?.[0] ?? null)}
          error={errors.avatar}
        />
        <TextField
          label={t('signup.coverImage')}
          type="file"
          accept={IMAGE_ACCEPT}
          onChange={(e) => setCoverImage(e.target.files?.[0] ?? null)}
          error={errors.coverImage}
        />
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? t('signup.creating') : t('signup.submit')}
        </Button>
        <p className="text-center text-sm text-neutral-600 dark:text-neutral-400">{haveAccount}</p>
      </form>
    </AuthCard>
  );
}
