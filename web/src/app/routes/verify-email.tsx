import { useTranslation } from 'react-i18next';
import { AuthCard } from '@/features/auth/components/auth-card';
import { VerifyEmailPanel } from '@/features/account-email/components/verify-email-panel';

export default function Page() {
  const { t } = useTranslation('app');
  return (
    <AuthCard title={t('verifyEmail.title')}>
      <VerifyEmailPanel />
    </AuthCard>
  );
}
