import { ForgotPasswordLink } from '@/features/account-email/components/forgot-password-link';
import { LoginForm } from '@/features/auth/components/login-form';

export default function Page() {
  return (
    <LoginForm>
      <ForgotPasswordLink />
    </LoginForm>
  );
}
