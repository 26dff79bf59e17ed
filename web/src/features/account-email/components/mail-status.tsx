import { useInstance } from '@/features/instance/api/instance.api';

/** In the admin overview: a site without mail offers no password resets or address checks. */
export function MailStatus() {
  const email = useInstance().data?.email;
  if (!email || email.enabled) return null;
  return (
    <p className="mb-4 rounded-xl border border-neutral-200 bg-neutral-50 px-4 py-3 text-sm text-neutral-700 dark:border-neutral-800 dark:bg-neutral-900 dark:text-neutral-300">
      Email is not configured: people cannot reset a forgotten password or confirm their address. Set SMTP_URL to turn it on.
    </p>
  );
}
