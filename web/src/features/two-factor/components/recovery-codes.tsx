import { useState } from 'react';
import { Button } from '@/components/ui/primitives';

const TURNED_ON =
  'Two-factor authentication is on. Keep these recovery codes somewhere safe: each one signs you in once if you lose your phone. They are shown only now.';

/** Recovery codes, shown once (after turning two-factor sign-in on, or asking for new ones), to keep somewhere safe. */
export function RecoveryCodesPanel({ codes, onDone, intro = TURNED_ON }: { codes: string[]; onDone: () => void; intro?: string }) {
  const [copied, setCopied] = useState(false);
  const text = `Reelhouse recovery codes (each works once)\n\n${codes.join('\n')}\n`;

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
      <p className="text-sm text-neutral-700 dark:text-neutral-300">{intro}</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-xl border border-neutral-200 p-4 font-mono text-sm dark:border-neutral-800">
        {codes.map((c) => (
          <li key={c} data-testid="recovery-code" className="text-neutral-900 dark:text-neutral-50">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button onClick={download}>Download</Button>
        <Button onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</Button>
        <Button variant="primary" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </div>
  );
}
