import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/primitives';

/** Recovery codes, shown once (after turning two-factor sign-in on, or asking for new ones), to keep somewhere safe. */
export function RecoveryCodesPanel({ codes, onDone, intro }: { codes: string[]; onDone: () => void; intro?: string }) {
  const { t } = useTranslation('twoFactor');
  const [copied, setCopied] = useState(false);
  const text = `${t('codes.fileHeading')}\n\n${codes.join('\n')}\n`;

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'reelhouse-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }

  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-neutral-700 dark:text-neutral-300">{intro ?? t('codes.turnedOn')}</p>
      <ul
        aria-label={t('codes.listLabel')}
        className="grid grid-cols-2 gap-2 rounded-xl border border-neutral-200 p-4 font-mono text-sm dark:border-neutral-800"
      >
        {codes.map((c) => (
          <li key={c} data-testid="recovery-code" className="text-neutral-900 dark:text-neutral-50">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button onClick={download}>{t('codes.download')}</Button>
        <Button onClick={() => void copy()}>{copied ? t('codes.copied') : t('codes.copy')}</Button>
        <Button variant="primary" onClick={onDone}>
          {t('codes.saved')}
        </Button>
      </div>
    </div>
  );
}
