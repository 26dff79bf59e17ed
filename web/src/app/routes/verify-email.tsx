import { AuthCard } from '@/features/auth/components/auth-card';
import { VerifyEmailPanel } from '@/features/account-email/components/verify-email-panel';

export default function Page() {
  return (
    <AuthCard title="Confirm your email address">
      <VerifyEmailPanel />
    </AuthCard>
  );
}
