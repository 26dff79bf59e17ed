import { PageTitle } from '@/components/ui/primitives';
import { ChangePasswordForm } from '@/features/users/components/change-password-form';

export default function ChangePasswordPage() {
  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle>Change Password</PageTitle>
      <ChangePasswordForm />
    </div>
  );
}
