import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeIcon, ShareIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/primitives';

export const LINK_COPIED_MS = 600;
/** An embed code is pasted elsewhere, often after a look at the notice: it stays longer. */
export const EMBED_COPIED_MS = 2000;

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

/** The iframe code that puts a video's embed page on another site (as the oEmbed answer gives it). */
export function embedCode(origin: string, videoId: string, title: string): string {
  const escape = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<iframe src="${origin}/embed/${encodeURIComponent(videoId)}" width="640" height="360" title="${escape(title)}" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`;
}

/** Shows a short notice for ms after something was copied. */
function useCopiedNotice(ms: number) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), ms);
    return () => clearTimeout(t);
  }, [copied, ms]);
  return [copied, setCopied] as const;
}

function CopiedNotice({ children }: { children: React.ReactNode }) {
  return (
    <span
      role="status"
      className="absolute left-1/2 top-full z-10 mt-2 -translate-x-1/2 whitespace-nowrap rounded-lg bg-neutral-900 px-3 py-1.5 text-xs text-white shadow dark:bg-white dark:text-neutral-900"
    >
      {children}
    </span>
  );
}

/** Copies the iframe code of the video's embed page. */
export function EmbedButton({ videoId, title }: { videoId: string; title: string }) {
  const { t } = useTranslation('app');
  const [copied, setCopied] = useCopiedNotice(EMBED_COPIED_MS);
  async function onEmbed() {
    await copyText(embedCode(window.location.origin, videoId, title));
    setCopied(true);
  }
  return (
    <div className="relative">
      <Button onClick={onEmbed} title={t('share.embedTitle')}>
        <CodeIcon width={18} height={18} /> {t('share.embed')}
      </Button>
      {copied && <CopiedNotice>{t('share.embedCopied')}</CopiedNotice>}
    </div>
  );
}

/** Copies the page's link and says so for LINK_COPIED_MS. */
export function ShareButton() {
  const { t } = useTranslation('app');
  const [copied, setCopied] = useCopiedNotice(LINK_COPIED_MS);

  async function onShare() {
    await copyText(window.location.href);
    setCopied(true);
  }

  return (
    <div className="relative">
      <Button onClick={onShare}>
        <ShareIcon width={18} height={18} /> {t('share.share')}
      </Button>
      {copied && <CopiedNotice>{t('share.linkCopied')}</CopiedNotice>}
    </div>
  );
}
