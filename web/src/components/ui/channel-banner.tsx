import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatSubscribers } from '@/lib/format';
import { Avatar } from './primitives';

interface ChannelBannerProps {
  coverUrl?: string;
  avatarUrl?: string;
  fullName: string;
  username: string;
  subscribers: number | undefined;
  extra?: ReactNode;
  /** A line under the handle (where a channel of another server lives). */
  note?: ReactNode;
  actions?: ReactNode;
}

export function ChannelBanner({ coverUrl, avatarUrl, fullName, username, subscribers, extra, note, actions }: ChannelBannerProps) {
  const { t } = useTranslation('ui');
  return (
    <header className="mb-6">
      <div className="aspect-[6/1] min-h-24 w-full overflow-hidden rounded-2xl bg-gradient-to-r from-rose-500 to-indigo-600">
        {coverUrl && <img src={coverUrl} alt={t('channelBanner.cover', { name: fullName })} className="h-full w-full object-cover" />}
      </div>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center">
        <Avatar src={avatarUrl} alt={t('channelBanner.avatar', { name: fullName })} size={96} className="ring-4 ring-white dark:ring-[#0f0f0f]" />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl font-bold sm:text-3xl">{fullName}</h1>
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            {/* Isolated: a remote handle (@name@host) keeps its order in a right-to-left page. */}
            <bdi>@{username}</bdi>
            {subscribers !== undefined && (
              <>
                {' '}
                <span aria-hidden="true">•</span> <span data-testid="subscriber-count">{formatSubscribers(subscribers)}</span>
              </>
            )}
            {extra}
          </p>
          {note}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
    </header>
  );
}

export function Tile({ to, label, icon }: { to: string; label: string; icon: ReactNode }) {
  return (
    <Link
      to={to}
      className="flex items-center gap-3 rounded-xl border border-neutral-200 p-4 font-medium hover:bg-neutral-50 dark:border-neutral-800 dark:hover:bg-neutral-900"
    >
      {icon}
      {label}
    </Link>
  );
}
