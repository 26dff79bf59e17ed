import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useNewRecoveryCodes } from '../api/two-factor.api';
import { RecoveryCodesPanel } from './recovery-codes';

/**
 * New recovery codes for someone who used or lost theirs: the password and a code (from the app or a
 * last recovery code) in a dialog, then the codes, shown once.
 */
export function NewRecoveryCodes() {
  const { t } = useTranslation('twoFactor');
  const renew = useNewRecoveryCodes();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  function close() {
    setOpen(false);
    setPassword('');
    setCode('');
    renew.reset();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await renew.mutateAsync({ password, code: code.trim() }).catch(() => undefined);
  }

  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('newCodes.title')}</Button>
      <Dialog open={open} onClose={close} title={t('newCodes.title')}>
        {renew.data ? (
          <RecoveryCodesPanel codes={renew.data.recoveryCodes} intro={t('newCodes.intro')} onDone={close} />
        ) : (
          <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
            <p className="text-sm text-neutral-700 dark:text-neutral-300">{t('newCodes.explain')}</p>
            <TextField label={t('password')} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <TextField
              label={t('appOrRecoveryCode')}
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              className="max-w-64"
            />
            {renew.isError && <InlineMessage>{errorMessage(renew.error, t('newCodes.failed'))}</InlineMessage>}
            <div className="flex justify-end gap-2">
              <Button onClick={close}>{t('newCodes.cancel')}</Button>
              <Button type="submit" variant="primary" disabled={renew.isPending || !password || !code.trim()}>
                {t('newCodes.submit')}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
