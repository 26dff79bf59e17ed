import type { MarkReadResult, Notification, NotificationEvent, NotificationPage, UnreadCount } from '@reelhouse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_BASE, api } from '@/lib/api-client';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  unread: ['notifications', 'unread'] as const,
};

const LIST_SIZE = 20;
/** After the stream is refused (an expired session), wait this long, refresh through the API client, and reopen. */
const REOPEN_MS = 3000;

export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) => api.get<UnreadCount>('/notifications/unread-count', undefined, signal).then((d) => d.count),
    enabled,
  });
}

export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal }) => api.get<NotificationPage>('/notifications', { pageSize: LIST_SIZE }, signal),
    enabled,
  });
}

export const markRead = (ids?: string[]) => api.patch<MarkReadResult>('/notifications/read', ids ? { ids } : {});

/** Marks read and puts the answer's unread count and the read flags in the cache at once. */
export function useMarkRead() {
  const qc = useQueryClient();
  return async (ids?: string[]) => {
    const result = await markRead(ids);
    qc.setQueryData(notificationKeys.unread, result.unreadCount);
    qc.setQueryData<NotificationPage>(notificationKeys.list, (old) =>
      old ? { ...old, notifications: old.notifications.map((n) => (!ids || ids.includes(n._id) ? { ...n, read: true } : n)) } : old,
    );
  };
}

/**
 * Keeps the unread count and the list live from the server's event stream while signed in. The
 * browser reconnects by itself after a drop; a refused stream (the session expired) is reopened
 * once the API client has refreshed the session.
 */
export function useNotificationStream(enabled: boolean, onNotice?: (n: Notification) => void) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      source = new EventSource(`${API_BASE}/notifications/stream`, { withCredentials: true });
      source.addEventListener('ready', (e) => {
        qc.setQueryData(notificationKeys.unread, (JSON.parse((e as MessageEvent).data) as { unreadCount: number }).unreadCount);
      });
      source.addEventListener('notification', (e) => {
        const { notification, unreadCount } = JSON.parse((e as MessageEvent).data) as NotificationEvent;
        qc.setQueryData(notificationKeys.unread, unreadCount);
        qc.setQueryData<NotificationPage>(notificationKeys.list, (old) =>
          old ? { ...old, notifications: [notification, ...old.notifications.filter((n) => n._id !== notification._id)], totalDocs: old.totalDocs + 1 } : old,
        );
        onNotice?.(notification);
      });
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED || stopped) return;
        timer = setTimeout(() => {
          // Goes through the client's one refresh and retry, renewing the session cookie.
          void qc.invalidateQueries({ queryKey: notificationKeys.unread }).finally(() => {
            if (!stopped) open();
          });
        }, REOPEN_MS);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [enabled, qc, onNotice]);
}
