import { useTranslation } from 'react-i18next';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ForgotPasswordForm } from '@/features/account-email/components/forgot-password-form';

export default function Page() {
  const { t } = useTranslation('app');
  return (
    <AuthCard title={t('forgotPassword.title')}>
      <ForgotPasswordForm />
    </AuthCard>
  );
}
