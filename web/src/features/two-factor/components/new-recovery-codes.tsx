import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useNewRecoveryCodes } from '../api/two-factor.api';
import { RecoveryCodesPanel } from './recovery-codes';

const NEW_CODES =
  'These are your new recovery codes: the old ones no longer work. Keep them somewhere safe; each one signs you in once. They are shown only now.';

/**
 * New recovery codes for someone who used or lost theirs: the password and a code (from the app or a
 * last recovery code) in a dialog, then the codes, shown once.
 */
export function NewRecoveryCodes() {
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
      <Button onClick={() => setOpen(true)}>New recovery codes</Button>
      <Dialog open={open} onClose={close} title="New recovery codes">
        {renew.data ? (
          <RecoveryCodesPanel codes={renew.data.recoveryCodes} intro={NEW_CODES} onDone={close} />
        ) : (
          <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
            <p className="text-sm text-neutral-700 dark:text-neutral-300">
              Ten new codes take the place of the ones you have now, used or not. Confirm with your password and a code.
            </p>
            <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <TextField
              label="Code from the app, or a recovery code"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              className="max-w-64"
            />
            {renew.isError && <InlineMessage>{errorMessage(renew.error, 'Could not make new recovery codes')}</InlineMessage>}
            <div className="flex justify-end gap-2">
              <Button onClick={close}>Cancel</Button>
              <Button type="submit" variant="primary" disabled={renew.isPending || !password || !code.trim()}>
                Make new codes
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
