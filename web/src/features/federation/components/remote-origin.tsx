import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { GlobeIcon } from '@/components/ui/icons';
import { hostOf } from '@/lib/origin';

// Where a channel or video of another server lives, and a way there. Host names are isolated
// (<bdi>) so that a right-to-left sentence does not reorder their dots and port.

/** A small "On other.site" pill. */
export function OriginBadge({ host }: { host: string }) {
  const { t } = useTranslation('federation');
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-900 dark:bg-sky-900/60 dark:text-sky-100"
      data-testid="origin-badge"
    >
      <GlobeIcon width={12} height={12} className="shrink-0" />
      <span>
        <Trans t={t} i18nKey="origin.on" components={{ host: <bdi>{host}</bdi> }} />
      </span>
    </span>
  );
}

/** A link to the page on the other server, opened in a new tab. */
function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  const { t } = useTranslation('federation');
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="font-medium text-sky-700 underline-offset-2 hover:underline dark:text-sky-300">
      {children} <span className="sr-only">{t('origin.newTab')}</span>
    </a>
  );
}

/** Under a remote channel's name: the pill and "View on other.site". */
export function RemoteChannelOrigin({ url }: { url: string }) {
  const { t } = useTranslation('federation');
  const host = hostOf(url);
  if (!host) return null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <OriginBadge host={host} />
      <ExternalLink href={url}>
        <Trans t={t} i18nKey="origin.viewOn" components={{ host: <bdi>{host}</bdi> }} />
      </ExternalLink>
    </p>
  );
}

/** Under a remote video's title: "From other.site", and the original's page there. */
export function RemoteVideoOrigin({ url }: { url: string }) {
  const { t } = useTranslation('federation');
  const host = hostOf(url);
  if (!host) return null;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-neutral-600 dark:text-neutral-400" data-testid="remote-video-origin">
      <GlobeIcon width={16} height={16} className="shrink-0" />
      <span>
        <Trans t={t} i18nKey="origin.from" components={{ host: <bdi>{host}</bdi> }} />
      </span>
      <span aria-hidden="true">•</span>
      <ExternalLink href={url}>{t('origin.original')}</ExternalLink>
    </p>
  );
}
