import type { Channel } from '@reelhouse/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/primitives';
import { hostOf } from '@/lib/origin';
import { OriginBadge } from './remote-origin';

/** A channel the lookup found: who it is, where it lives, its page here, and what the page passes as actions (subscribe). */
export function RemoteChannelCard({ channel, actions }: { channel: Channel; actions?: ReactNode }) {
  const { t } = useTranslation('federation');
  const page = `/channel/${channel.username}`;
  const host = channel.remote ? hostOf(channel.url) : '';
  return (
    <article
      className="flex flex-col gap-4 rounded-xl border border-neutral-200 p-4 sm:flex-row sm:items-center dark:border-neutral-800"
      data-testid="remote-channel-card"
    >
      <Link to={page} tabIndex={-1} aria-hidden="true" className="shrink-0">
        <Avatar src={channel.avatar.url} alt="" size={64} />
      </Link>
      <div className="min-w-0 flex-1">
        <h2 className="truncate text-lg font-semibold">
          <Link to={page} className="hover:underline">
            {channel.fullName || channel.username}
          </Link>
        </h2>
        <p className="truncate text-sm text-neutral-600 dark:text-neutral-400">
          <bdi>@{channel.username}</bdi>
        </p>
        {host && (
          <p className="mt-1">
            <OriginBadge host={host} />
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {actions}
        <Link
          to={page}
          className="inline-flex h-10 items-center rounded-full bg-neutral-100 px-4 text-sm font-medium text-neutral-900 hover:bg-neutral-200 dark:bg-neutral-800 dark:text-neutral-100 dark:hover:bg-neutral-700"
        >
          {t('card.open')}
        </Link>
      </div>
    </article>
  );
}
