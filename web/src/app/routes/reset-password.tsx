import { useTranslation } from 'react-i18next';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ResetPasswordForm } from '@/features/account-email/components/reset-password-form';

export default function Page() {
  const { t } = useTranslation('app');
  return (
    <AuthCard title={t('resetPassword.title')}>
      <ResetPasswordForm />
    </AuthCard>
  );
}
