import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, Spinner, TextField } from '@/components/ui/primitives';
import { useInstance } from '@/features/instance/api/instance.api';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { resendVerification, useAccountEmail, useChangeEmail } from '../api/account-email.api';

const badge = {
  on: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  off: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
};

/** Sends the confirmation link again and says how that went (the server's answer, a refusal or its limit). */
function ResendLink() {
  const { t } = useTranslation('accountEmail');
  const [note, setNote] = useState<{ text: string; ok: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  async function resend() {
    setBusy(true);
    try {
      setNote({ text: await resendVerification(), ok: true });
    } catch (err) {
      setNote({ text: errorMessage(err, t('section.couldNotSendLink')), ok: false });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-sm text-neutral-700 dark:text-neutral-300">{t('section.followLink')}</p>
      <Button size="sm" onClick={() => void resend()} disabled={busy}>
        {busy ? t('sending') : t('section.sendAgain')}
      </Button>
      {note && <InlineMessage kind={note.ok ? 'success' : 'error'}>{note.text}</InlineMessage>}
    </div>
  );
}

/**
 * The account's email address: whether it is confirmed, the confirmation link again, and a new
 * address. Where the site checks addresses the new one takes effect only once its link is followed,
 * so the old one stays shown until then; elsewhere it changes at once.
 */
export function EmailSection() {
  const { t } = useTranslation('accountEmail');
  const account = useAccountEmail();
  const mail = useInstance().data?.email;
  const change = useChangeEmail();
  const { dispatch } = useAuth();
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const checked = !!mail?.enabled && mail.verification !== 'off';

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const wanted = email.trim().toLowerCase();
    setPending(null);
    setChanged(false);
    const updated = await change.mutateAsync(wanted).catch(() => null);
    if (!updated) return;
    setEmail('');
    if (updated.email.toLowerCase() === wanted) {
      dispatch({ type: 'set-user', user: updated });
      setChanged(true);
    } else setPending(wanted);
  }

  let body;
  if (account.isPending) body = <Spinner label={t('section.loading')} />;
  else if (account.isError) body = <InlineMessage>{errorMessage(account.error, t('section.couldNotLoad'))}</InlineMessage>;
  else {
    const user = account.data;
    const refusal = change.isError
      ? isApiError(change.error) && change.error.message === 'email exists'
        ? t('section.addressTaken')
        : errorMessage(change.error, t('section.couldNotChange'))
      : null;
    body = (
      <>
        <p className="flex flex-wrap items-center gap-2 text-sm text-neutral-700 dark:text-neutral-300">
          <span data-testid="account-email" className="font-medium break-all text-neutral-900 dark:text-neutral-50">
            {user.email}
          </span>
          {checked && (
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${user.emailVerified ? badge.on : badge.off}`}>
              {user.emailVerified ? t('section.confirmed') : t('section.notConfirmed')}
            </span>
          )}
        </p>
        {checked && !user.emailVerified && <ResendLink />}
        {changed && <InlineMessage kind="success">{t('section.changed', { email: user.email })}</InlineMessage>}
        {pending && <InlineMessage kind="success">{t('section.pending', { email: pending })}</InlineMessage>}
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex max-w-md flex-col gap-3">
          <TextField
            label={t('section.newAddress')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            hint={checked ? t('section.hintChecked') : t('section.hintAtOnce')}
          />
          {refusal && <InlineMessage>{refusal}</InlineMessage>}
          <Button type="submit" variant="primary" disabled={change.isPending || !email.trim()} className="self-start">
            {t('section.submit')}
          </Button>
        </form>
      </>
    );
  }

  return (
    <section aria-labelledby="email-heading" className="mb-10 flex flex-col gap-4">
      <h2 id="email-heading" className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">
        {t('section.title')}
      </h2>
      {body}
    </section>
  );
}
