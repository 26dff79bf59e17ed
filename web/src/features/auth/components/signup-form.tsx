import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
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
      setServerError(isApiError(err, 409) ? err.message : errorMessage(err, 'Sign up failed'));
      setBusy(false);
    }
  }

  const loginLink = (
    <Link to="/login" className="font-medium text-rose-600 hover:underline dark:text-rose-400">
      Log in
    </Link>
  );
  if (instance?.signupMode === 'closed') {
    return (
      <AuthCard title="Sign-ups are closed">
        <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
          {instance.name} is not taking new accounts right now.
        </p>
        <p className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">Already have an account? {loginLink}</p>
      </AuthCard>
    );
  }
  if (awaitingMail) {
    return (
      <AuthCard title="Account created">
        <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
          We mailed a link to {fields.email.trim()}: follow it to confirm your address, then log in.
        </p>
        <p className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">{loginLink}</p>
      </AuthCard>
    );
  }
  if (awaitingApproval) {
    return (
      <AuthCard title="Account created">
        <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
          An admin must approve your account before you can sign in. Try logging in again later.
        </p>
        <p className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">{loginLink}</p>
      </AuthCard>
    );
  }

  if (instance?.passwordSignIn === false) {
    return (
      <AuthCard title="Create your account">
        <div className="flex flex-col gap-4">
          <p className="text-sm text-neutral-700 dark:text-neutral-300">
            {instance.name} makes accounts through single sign-on: your first sign-in creates yours.
          </p>
          {providers?.(false)}
          <p className="text-center text-sm text-neutral-600 dark:text-neutral-400">Already have an account? {loginLink}</p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create your account">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {providers?.(true)}
        {serverError && <InlineMessage>{serverError}</InlineMessage>}
        {instance?.signupMode === 'approval' && (
          <p className="text-sm text-neutral-600 dark:text-neutral-400">An admin approves new accounts before they can sign in.</p>
        )}
        <TextField label="Full name" autoComplete="name" value={fields.fullName} onChange={set('fullName')} error={errors.fullName} required />
        <TextField label="Email" type="email" autoComplete="email" value={fields.email} onChange={set('email')} error={errors.email} required />
        <TextField label="Username" autoComplete="username" value={fields.username} onChange={set('username')} error={errors.username} required />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={set('password')}
          error={errors.password}
          required
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          value={fields.confirmPassword}
          onChange={set('confirmPassword')}
          error={errors.confirmPassword}
          required
        />
        <TextField label="Avatar (optional)" type="file" accept={IMAGE_ACCEPT} onChange={(e) => setAvatar(e.target.files?.[0] ?? null)} error={errors.avatar} />
        <TextField
          label="Cover image (optional)"
          type="file"
          accept={IMAGE_ACCEPT}
          onChange={(e) => setCoverImage(e.target.files?.[0] ?? null)}
          error={errors.coverImage}
        />
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Creating account…' : 'Sign Up'}
        </Button>
        <p className="text-center text-sm text-neutral-600 dark:text-neutral-400">
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-rose-600 hover:underline dark:text-rose-400">
            Log in
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
