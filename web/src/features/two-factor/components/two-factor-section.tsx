import type { TwoFactorSetup } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, Spinner, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useDisableTwoFactor, useEnableTwoFactor, useSetUpTwoFactor, useTwoFactorEnabled } from '../api/two-factor.api';
import { NewRecoveryCodes } from './new-recovery-codes';
import { RecoveryCodesPanel } from './recovery-codes';

const codeInput = { inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '[0-9]*', maxLength: 6 } as const;

function SetUp({ setup, onEnabled }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation('twoFactor');
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const { recoveryCodes } = await enable.mutateAsync(code.trim()).catch(() => ({ recoveryCodes: null }));
    if (recoveryCodes) onEnabled(recoveryCodes);
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-neutral-700 dark:text-neutral-300">{t('setUp.scan')}</p>
      <img src={setup.qrCode} alt={t('setUp.qrCodeAlt')} width={200} height={200} className="rounded-lg bg-white p-1" />
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        {t('setUp.cannotScan')}{' '}
        <code data-testid="two-factor-secret" className="font-mono break-all text-neutral-900 select-all dark:text-neutral-50">
          {setup.secret}
        </code>
      </p>
      <TextField label={t('setUp.code')} {...codeInput} value={code} onChange={(e) => setCode(e.target.value)} className="max-w-48" />
      {enable.isError && <InlineMessage>{errorMessage(enable.error, t('setUp.failed'))}</InlineMessage>}
      <Button type="submit" variant="primary" disabled={enable.isPending || code.trim().length === 0} className="self-start">
        {t('setUp.submit')}
      </Button>
    </form>
  );
}

function TurnOff({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('twoFactor');
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await disable.mutateAsync({ password, code: code.trim() }).then(onDone, () => undefined);
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex max-w-md flex-col gap-4">
      <TextField label={t('password')} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <TextField label={t('appOrRecoveryCode')} autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} className="max-w-64" />
      {disable.isError && <InlineMessage>{errorMessage(disable.error, t('turnOff.failed'))}</InlineMessage>}
      <Button type="submit" variant="danger" disabled={disable.isPending || !password || !code.trim()} className="self-start">
        {t('turnOff.submit')}
      </Button>
    </form>
  );
}

/** The account's two-factor sign-in: setting it up with an authenticator app, new recovery codes, and turning it off. */
export function TwoFactorSection() {
  const { t } = useTranslation('twoFactor');
  const status = useTwoFactorEnabled();
  const start = useSetUpTwoFactor();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [turnedOff, setTurnedOff] = useState(false);

  let body;
  if (status.isPending) body = <Spinner label={t('loading')} />;
  else if (status.isError) body = <InlineMessage>{errorMessage(status.error, t('loadFailed'))}</InlineMessage>;
  else if (recoveryCodes) body = <RecoveryCodesPanel codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  else if (status.data && turningOff)
    body = (
      <TurnOff
        onDone={() => {
          setTurningOff(false);
          setTurnedOff(true);
        }}
      />
    );
  else if (status.data)
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-neutral-700 dark:text-neutral-300">
          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
            {t('on.badge')}
          </span>{' '}
          {t('on.explain')}
        </p>
        <div className="flex flex-wrap gap-2">
          <NewRecoveryCodes />
          <Button variant="danger" onClick={() => setTurningOff(true)}>
            {t('on.turnOff')}
          </Button>
        </div>
      </div>
    );
  else if (start.data)
    body = (
      <SetUp
        setup={start.data}
        onEnabled={(codes) => {
          start.reset();
          setRecoveryCodes(codes);
        }}
      />
    );
  else
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-neutral-700 dark:text-neutral-300">{t('off.explain')}</p>
        {start.isError && <InlineMessage>{errorMessage(start.error, t('off.startFailed'))}</InlineMessage>}
        <Button
          variant="primary"
          className="self-start"
          disabled={start.isPending}
          onClick={() => {
            setTurnedOff(false);
            start.mutate();
          }}
        >
          {t('off.setUp')}
        </Button>
      </div>
    );

  return (
    <section aria-labelledby="two-factor-title" className="mb-10 flex flex-col gap-4">
      <h2 id="two-factor-title" className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">
        {t('title')}
      </h2>
      {turnedOff && <InlineMessage kind="success">{t('turnedOff')}</InlineMessage>}
      {body}
    </section>
  );
}
