import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/ui/primitives';
import { ChangePasswordForm } from '@/features/users/components/change-password-form';

export default function ChangePasswordPage() {
  const { t } = useTranslation('app');
  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle>{t('changePassword.title')}</PageTitle>
      <ChangePasswordForm />
    </div>
  );
}
