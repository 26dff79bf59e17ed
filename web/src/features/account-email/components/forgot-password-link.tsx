import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useInstance } from '@/features/instance/api/instance.api';

/** Under the sign-in form: a link where the site sends mail, else who can help. */
export function ForgotPasswordLink() {
  const { t } = useTranslation('accountEmail');
  const instance = useInstance().data;
  if (!instance) return null;
  return (
    <p className="text-center text-sm text-neutral-600 dark:text-neutral-400">
      {instance.email.enabled ? (
        <Link to="/forgot-password" className="font-medium text-rose-600 hover:underline dark:text-rose-400">
          {t('forgot.link')}
        </Link>
      ) : (
        t('forgot.askAdmin')
      )}
    </p>
  );
}
