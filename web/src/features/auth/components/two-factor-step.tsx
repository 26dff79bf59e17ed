import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';

/**
 * The second step of signing in to an account with two-factor sign-in on: the 6-digit code from the
 * app, or one of the recovery codes.
 */
export function TwoFactorStep({
  busy,
  error,
  onSubmit,
  onBack,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (second: { code: string } | { recoveryCode: string }) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    const v = value.trim();
    if (!v) return;
    onSubmit(useRecovery ? { recoveryCode: v } : { code: v.replace(/\s+/g, '') });
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-neutral-700 dark:text-neutral-300">{useRecovery ? t('twoFactorStep.enterRecoveryCode') : t('twoFactorStep.enterCode')}</p>
      {useRecovery ? (
        <TextField
          key="recovery"
          ref={inputRef}
          label={t('twoFactorStep.recoveryCode')}
          autoComplete="off"
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      ) : (
        <TextField
          key="code"
          ref={inputRef}
          label={t('twoFactorStep.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      )}
      {error && <InlineMessage>{error}</InlineMessage>}
      <Button type="submit" variant="primary" disabled={busy || !value.trim()}>
        {busy ? t('twoFactorStep.checking') : t('twoFactorStep.verify')}
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="font-medium text-rose-600 hover:underline dark:text-rose-400"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
            inputRef.current?.focus();
          }}
        >
          {useRecovery ? t('twoFactorStep.useAppCode') : t('twoFactorStep.useRecoveryCode')}
        </button>
        <button type="button" className="text-neutral-600 hover:underline dark:text-neutral-400" onClick={onBack}>
          {t('twoFactorStep.back')}
        </button>
      </div>
    </form>
  );
}
