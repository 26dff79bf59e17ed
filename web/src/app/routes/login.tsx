import { useLocation, type Location } from 'react-router';
import { ForgotPasswordLink } from '@/features/account-email/components/forgot-password-link';
import { LoginForm } from '@/features/auth/components/login-form';
import { useInstance } from '@/features/instance/api/instance.api';
import { PasskeySignIn } from '@/features/passkeys/components/passkey-sign-in';
import { ProviderButtons } from '@/features/single-sign-on/components/provider-buttons';

export default function Page() {
  const location = useLocation();
  const passwordSignIn = useInstance().data?.passwordSignIn ?? true;
  // Where the sign-in guard came from: single sign-on returns there too.
  const from = (location.state as { from?: Location } | null)?.from;
  return (
    <LoginForm
      passkey={<PasskeySignIn />}
      providers={<ProviderButtons returnTo={from ? from.pathname + from.search : '/'} divider={passwordSignIn} />}
      passwordForAdminsOnly={!passwordSignIn}
    >
      <ForgotPasswordLink />
    </LoginForm>
  );
}
