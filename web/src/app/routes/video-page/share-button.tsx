import { useEffect, useState } from 'react';
import { ShareIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/primitives';

export const LINK_COPIED_MS = 600;

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}

/** Copies the page's link and says so for LINK_COPIED_MS. */
export function ShareButton() {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), LINK_COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  async function onShare() {
    await copyText(window.location.href);
    setCopied(true);
  }

  return (
    <div className="relative">
      <Button onClick={onShare}>
        <ShareIcon width={18} height={18} /> Share
      </Button>
      {copied && (
        <span
          role="status"
          className="absolute left-1/2 top-full z-10 mt-2 -translate-x-1/2 whitespace-nowrap rounded-lg bg-neutral-900 px-3 py-1.5 text-xs text-white shadow dark:bg-white dark:text-neutral-900"
        >
          Video Link copied!
        </span>
      )}
    </div>
  );
}
