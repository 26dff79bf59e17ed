import { ForgotPasswordLink } from '@/features/account-email/components/forgot-password-link';
import { LoginForm } from '@/features/auth/components/login-form';
import { PasskeySignIn } from '@/features/passkeys/components/passkey-sign-in';

export default function Page() {
  return (
    <LoginForm passkey={<PasskeySignIn />}>
      <ForgotPasswordLink />
    </LoginForm>
  );
}
