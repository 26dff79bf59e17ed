import { DemoLoginForm } from '@/features/auth/components/demo-login-form';

export default function Page() {
  return <DemoLoginForm />;
}
