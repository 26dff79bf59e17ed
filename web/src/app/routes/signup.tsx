import { SignupForm } from '@/features/auth/components/signup-form';
import { ProviderButtons } from '@/features/single-sign-on/components/provider-buttons';

export default function Page() {
  return <SignupForm providers={(divider) => <ProviderButtons returnTo="/" divider={divider} />} />;
}
