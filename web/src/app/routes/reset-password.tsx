import { AuthCard } from '@/features/auth/components/auth-card';
import { ResetPasswordForm } from '@/features/account-email/components/reset-password-form';

export default function Page() {
  return (
    <AuthCard title="New password">
      <ResetPasswordForm />
    </AuthCard>
  );
}
