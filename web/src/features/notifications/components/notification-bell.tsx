import type { Notification } from '@reelhouse/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BellIcon } from '@/components/ui/icons';
import { Avatar, Button, EmptyState, Spinner } from '@/components/ui/primitives';
import { i18n } from '@/i18n/i18n';
import { cn } from '@/lib/cn';
import { timeAgo } from '@/lib/format';
import { useMarkRead, useNotifications, useNotificationStream, useUnreadCount } from '../api/notifications.api';
import { failureReasonText } from '@/features/videos/lib/failure-reason';

/** What a notification says, in a sentence of the interface's language (read when it is drawn). */
export function notificationText(n: Notification): string {
  const who = n.actor ? `@${n.actor.username}` : null;
  const title = n.video?.title ?? i18n.t('notifications:aVideo');
  const comment = n.comment?.content ?? '';
  switch (n.kind) {
    case 'new_video':
      return who ? i18n.t('notifications:text.newVideo', { who, title }) : i18n.t('notifications:text.newVideoSomeone', { title });
    case 'comment_reply':
      return who ? i18n.t('notifications:text.commentReply', { who, comment }) : i18n.t('notifications:text.commentReplySomeone', { comment });
    case 'video_comment':
      return who ? i18n.t('notifications:text.videoComment', { who, title, comment }) : i18n.t('notifications:text.videoCommentSomeone', { title, comment });
    case 'upload_ready':
      return i18n.t('notifications:text.uploadReady', { title });
    case 'upload_failed':
      return n.reason
        ? i18n.t('notifications:text.uploadFailedReason', { title, reason: failureReasonText(n.reason) })
        : i18n.t('notifications:text.uploadFailed', { title });
    case 'live_started':
      return n.actor
        ? i18n.t('notifications:text.liveStarted', { name: n.actor.fullName || n.actor.username, title })
        : i18n.t('notifications:text.liveStartedChannel', { title });
  }
}

/** The top bar's bell: the unread count, live, and a list to open and mark read. */
export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const unread = useUnreadCount(true);
  const list = useNotifications(open);
  const markRead = useMarkRead();
  useNotificationStream(true);
  const count = unread.data ?? 0;

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !panel.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const items = list.data?.notifications ?? [];
  return (
    <div className="relative" ref={panel}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls="notifications-panel"
        aria-label={count ? t('unreadLabel', { count }) : t('title')}
        className="relative rounded-full p-2 hover:bg-neutral-100 dark:hover:bg-neutral-800"
        data-testid="notification-bell"
      >
        <BellIcon />
        {count > 0 && (
          <span
            className="absolute end-0.5 top-0.5 min-w-[18px] rounded-full bg-rose-600 px-1 text-center text-[11px] font-bold leading-[18px] text-white"
            data-testid="unread-count"
          >
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && (
        <div
          id="notifications-panel"
          role="region"
          aria-label={t('title')}
          className="absolute end-0 top-11 z-40 w-[min(24rem,calc(100vw-1rem))] rounded-xl border border-neutral-200 bg-white shadow-xl dark:border-neutral-800 dark:bg-neutral-900"
        >
          <div className="flex items-center justify-between border-b border-neutral-200 px-4 py-2 dark:border-neutral-800">
            <h2 className="text-sm font-semibold">{t('title')}</h2>
            <Button size="sm" variant="ghost" onClick={() => void markRead()} disabled={count === 0}>
              {t('markAllRead')}
            </Button>
          </div>
          {list.isPending ? (
            <Spinner label={t('loading')} />
          ) : items.length === 0 ? (
            <div className="p-4">
              <EmptyState>{t('empty')}</EmptyState>
            </div>
          ) : (
            <ul className="max-h-[70vh] overflow-y-auto py-1">
              {items.map((n) => (
                <NotificationItem
                  key={n._id}
                  notification={n}
                  onOpen={() => {
                    if (!n.read) void markRead([n._id]);
                    setOpen(false);
                  }}
                  onMarkRead={() => void markRead([n._id])}
                />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

function NotificationItem({ notification: n, onOpen, onMarkRead }: { notification: Notification; onOpen: () => void; onMarkRead: () => void }) {
  const { t } = useTranslation('notifications');
  const to = n.video ? `/video/${n.video._id}` : '/';
  return (
    <li className={cn('flex items-start gap-3 px-4 py-2.5', !n.read && 'bg-sky-50 dark:bg-sky-950/40')} data-testid="notification">
      <Avatar src={n.actor?.avatar.url} alt="" size={36} />
      <Link to={to} onClick={onOpen} className="min-w-0 flex-1 text-sm hover:underline">
        <span className="line-clamp-3 break-words">{notificationText(n)}</span>
        <span className="mt-0.5 block text-xs text-neutral-600 dark:text-neutral-400">{timeAgo(n.createdAt)}</span>
      </Link>
      {n.video?.thumbnail.url && <img src={n.video.thumbnail.url} alt="" className="h-10 w-16 shrink-0 rounded object-cover" />}
      {!n.read && (
        <button
          type="button"
          onClick={onMarkRead}
          aria-label={t('markRead')}
          title={t('markRead')}
          className="mt-1 h-2.5 w-2.5 shrink-0 rounded-full bg-sky-600"
        />
      )}
    </li>
  );
}
