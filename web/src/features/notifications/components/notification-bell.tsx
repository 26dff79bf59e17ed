import type { Notification } from '@reelhouse/contract';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { BellIcon } from '@/components/ui/icons';
import { Avatar, Button, EmptyState, Spinner } from '@/components/ui/primitives';
import { cn } from '@/lib/cn';
import { timeAgo } from '@/lib/format';
import { useMarkRead, useNotifications, useNotificationStream, useUnreadCount } from '../api/notifications.api';

/** What a notification says, in a sentence. */
export function notificationText(n: Notification): string {
  const who = n.actor ? `@${n.actor.username}` : 'Someone';
  const title = n.video?.title ?? 'a video';
  switch (n.kind) {
    case 'new_video':
      return `${who} uploaded: ${title}`;
    case 'comment_reply':
      return `${who} replied to your comment: “${n.comment?.content ?? ''}”`;
    case 'video_comment':
      return `${who} commented on ${title}: “${n.comment?.content ?? ''}”`;
    case 'upload_ready':
      return `Your video is ready: ${title}`;
    case 'upload_failed':
      return `Your upload failed: ${title}${n.reason ? ` (${n.reason})` : ''}`;
    case 'live_started':
      return `${n.actor ? n.actor.fullName || n.actor.username : 'A channel'} is live now: ${title}`;
  }
}

/** The top bar's bell: the unread count, live, and a list to open and mark read. */
export function NotificationBell() {
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
        aria-label={count ? `Notifications, ${count} unread` : 'Notifications'}
        className="relative rounded-full p-2 hover:bg-neutral-100 dark:hover:bg-neutral-800"
        data-testid="notification-bell"
      >
        <BellIcon />
        {count > 0 && (
          <span
            className="absolute right-0.5 top-0.5 min-w-[18px] rounded-full bg-rose-600 px-1 text-center text-[11px] font-bold leading-[18px] text-white"
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
          aria-label="Notifications"
          className="absolute right-0 top-11 z-40 w-[min(24rem,calc(100vw-1rem))] rounded-xl border border-neutral-200 bg-white shadow-xl dark:border-neutral-800 dark:bg-neutral-900"
        >
          <div className="flex items-center justify-between border-b border-neutral-200 px-4 py-2 dark:border-neutral-800">
            <h2 className="text-sm font-semibold">Notifications</h2>
            <Button size="sm" variant="ghost" onClick={() => void markRead()} disabled={count === 0}>
              Mark all read
            </Button>
          </div>
          {list.isPending ? (
            <Spinner label="Loading notifications" />
          ) : items.length === 0 ? (
            <div className="p-4">
              <EmptyState>No notifications yet</EmptyState>
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
  const to = n.video ? `/video/${n.video._id}` : '/';
  return (
    <li className={cn('flex items-start gap-3 px-4 py-2.5', !n.read && 'bg-sky-50 dark:bg-sky-950/40')} data-testid="notification">
      <Avatar src={n.actor?.avatar.url} alt="" size={36} />
      <Link to={to} onClick={onOpen} className="min-w-0 flex-1 text-sm hover:underline">
        <span className="line-clamp-3 break-words">{notificationText(n)}</span>
        <span className="mt-0.5 block text-xs text-neutral-500">{timeAgo(n.createdAt)}</span>
      </Link>
      {n.video?.thumbnail.url && <img src={n.video.thumbnail.url} alt="" className="h-10 w-16 shrink-0 rounded object-cover" />}
      {!n.read && (
        <button type="button" onClick={onMarkRead} aria-label="Mark read" title="Mark read" className="mt-1 h-2.5 w-2.5 shrink-0 rounded-full bg-sky-600" />
      )}
    </li>
  );
}
