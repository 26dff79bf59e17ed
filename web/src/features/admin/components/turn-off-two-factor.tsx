import type { AdminUser } from '@reelhouse/contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useTurnOffTwoFactor } from '../api/admin.api';

/**
 * For an account with two-factor sign-in on: turning it off, after a confirmation, for someone who
 * lost both their authenticator and their recovery codes. Admins turn their own off from their settings.
 */
export function TurnOffTwoFactor({ user, self }: { user: AdminUser; self: boolean }) {
  const turnOff = useTurnOffTwoFactor();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  if (!user.twoFactorEnabled || self) return null;
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setAsking(true)} aria-label={`Turn off two-factor authentication of ${user.username}`}>
        Turn off two-factor
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Turn off two-factor authentication of ${user.username}?`}
        message={`Do this only once you are sure the request comes from ${user.fullName} (${user.email}): anyone with their password can then sign in. They are signed out of every device, and can turn two-factor authentication on again from their settings.`}
        confirmLabel="Turn off"
        busy={turnOff.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() =>
          turnOff.mutate(user._id, {
            onSuccess: () => {
              toast.show(`Two-factor authentication of ${user.username} is off; they are signed out everywhere`, 'success');
              setAsking(false);
            },
            onError: (err) => toast.show(err.message, 'error'),
          })
        }
      />
    </>
  );
}
