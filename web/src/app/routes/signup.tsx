import { SignupForm } from '@/features/auth/components/signup-form';

export default function Page() {
  return <SignupForm />;
}
