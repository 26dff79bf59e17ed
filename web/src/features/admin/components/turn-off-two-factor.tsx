import type { AdminUser } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useTurnOffTwoFactor } from '../api/admin.api';

/**
 * For an account with two-factor sign-in on: turning it off, after a confirmation, for someone who
 * lost both their authenticator and their recovery codes. Admins turn their own off from their settings.
 */
export function TurnOffTwoFactor({ user, self }: { user: AdminUser; self: boolean }) {
  const { t } = useTranslation('admin');
  const turnOff = useTurnOffTwoFactor();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  if (!user.twoFactorEnabled || self) return null;
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setAsking(true)} aria-label={t('twoFactor.turnOffLabel', { username: user.username })}>
        {t('twoFactor.turnOffButton')}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t('twoFactor.confirmTitle', { username: user.username })}
        message={t('twoFactor.confirmMessage', { fullName: user.fullName, email: user.email })}
        confirmLabel={t('twoFactor.confirm')}
        busy={turnOff.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() =>
          turnOff.mutate(user._id, {
            onSuccess: () => {
              toast.show(t('twoFactor.done', { username: user.username }), 'success');
              setAsking(false);
            },
            onError: (err) => toast.show(err.message, 'error'),
          })
        }
      />
    </>
  );
}
