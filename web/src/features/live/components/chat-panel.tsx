import type { ChatHistory, ChatMessage, LiveStatusEvent, Role } from '@reelhouse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { addMessage, banFromChat, chatKeys, deleteChatMessage, removeMessage, sendChatMessage, useChatHistory, useChatStream } from '../api/chat.api';
import { ChatForm } from './chat-form';
import { ChatMessageItem, type ChatMessageRights } from './chat-message';

export interface ChatViewer {
  _id: string;
  role: Role;
}

type Notify = (message: string, kind: 'error' | 'success' | 'info') => void;

/** What a viewer may do to a message: authors delete their own; the channel owner and staff delete any and ban others. */
export function messageRights(message: ChatMessage, viewer: ChatViewer | null, channelOwnerId: string): ChatMessageRights {
  if (!viewer) return { canDelete: false, canBan: false };
  const moderates = viewer._id === channelOwnerId || viewer.role === 'moderator' || viewer.role === 'admin';
  const own = message.author._id === viewer._id;
  return { canDelete: own || moderates, canBan: moderates && !own && message.author._id !== channelOwnerId };
}

/** How close to the bottom still counts as reading the newest messages. */
const BOTTOM_SLACK_PX = 32;

/**
 * A live's chat: the newest messages (kept in view unless the reader scrolled up), the form for
 * signed-in viewers, deletion and bans for those allowed. While `stream` is on it follows the chat
 * stream, which also brings the viewer count and the live's status changes.
 */
export function ChatPanel({
  videoId,
  channelOwnerId,
  viewer,
  stream = true,
  notify,
  onViewers,
  onStatus,
  className,
}: {
  videoId: string;
  channelOwnerId: string;
  viewer: ChatViewer | null;
  stream?: boolean;
  notify: Notify;
  onViewers?: (viewers: number) => void;
  onStatus?: (status: LiveStatusEvent['status']) => void;
  className?: string;
}) {
  const { t } = useTranslation('live');
  const qc = useQueryClient();
  const history = useChatHistory(videoId);
  useChatStream(videoId, { onViewers, onStatus }, stream);
  const messages = history.data?.messages ?? [];
  const open = history.data?.settings.open ?? true;
  const slowMode = history.data?.settings.slowModeSeconds ?? 0;

  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  const [unseen, setUnseen] = useState(false);
  const lastId = messages[messages.length - 1]?._id;

  const toBottom = useCallback(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    setUnseen(false);
  }, []);

  // A new message: follow it if the reader is at the bottom, otherwise offer to jump to it.
  useLayoutEffect(() => {
    if (!lastId) return;
    if (atBottom.current) toBottom();
    else setUnseen(true);
  }, [lastId, toBottom]);

  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    if (atBottom.current) setUnseen(false);
  };

  const send = async (content: string) => {
    const message = await sendChatMessage(videoId, content);
    atBottom.current = true;
    qc.setQueryData<ChatHistory>(chatKeys.history(videoId), (old) => addMessage(old, message));
  };
  const remove = (m: ChatMessage) => {
    deleteChatMessage(videoId, m._id)
      .then(() => qc.setQueryData<ChatHistory>(chatKeys.history(videoId), (old) => removeMessage(old, m._id)))
      .catch((err: unknown) => notify(errorMessage(err, t('chat.deleteFailed')), 'error'));
  };
  const ban = (m: ChatMessage, seconds: number) => {
    const name = m.author.fullName || m.author.username;
    banFromChat(videoId, m.author._id, seconds)
      .then(() => notify(t('chat.banned', { name, until: formatDateTime(new Date(Date.now() + seconds * 1000)) }), 'success'))
      .catch((err: unknown) => notify(errorMessage(err, t('chat.banFailed')), 'error'));
  };

  return (
    <section
      aria-label={t('chat.title')}
      className={cn(
        'flex min-h-0 flex-col overflow-hidden rounded-xl border border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-900',
        className,
      )}
    >
      <header className="flex items-center justify-between border-b border-neutral-200 px-4 py-2.5 dark:border-neutral-800">
        <h2 className="text-sm font-semibold">{t('chat.title')}</h2>
        {slowMode > 0 && open && <span className="text-xs text-neutral-500">{t('chat.slowMode', { seconds: slowMode })}</span>}
      </header>
      <div className="relative min-h-0 flex-1">
        {history.isPending ? (
          <Spinner label={t('chat.loading')} />
        ) : history.isError ? (
          <p className="p-4 text-sm text-neutral-500">{errorMessage(history.error, t('chat.loadFailed'))}</p>
        ) : (
          <ol
            ref={list}
            onScroll={onScroll}
            role="log"
            aria-live="polite"
            aria-label={t('chat.messages')}
            className="h-full overflow-y-auto px-2 py-2"
            data-testid="chat-messages"
          >
            {messages.length === 0 && <li className="px-2 py-6 text-center text-sm text-neutral-500">{t('chat.empty')}</li>}
            {messages.map((m) => (
              <ChatMessageItem
                key={m._id}
                message={m}
                rights={messageRights(m, viewer, channelOwnerId)}
                onDelete={() => remove(m)}
                onBan={(seconds) => ban(m, seconds)}
              />
            ))}
          </ol>
        )}
        {unseen && (
          <button
            type="button"
            onClick={toBottom}
            className="absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full bg-neutral-900 px-3 py-1 text-xs font-medium text-white shadow-lg dark:bg-white dark:text-neutral-900"
          >
            {t('chat.newMessages')}
          </button>
        )}
      </div>
      {!open ? (
        <p className="border-t border-neutral-200 p-3 text-center text-sm text-neutral-500 dark:border-neutral-800">{t('chat.closed')}</p>
      ) : viewer ? (
        <ChatForm send={send} />
      ) : (
        <p className="border-t border-neutral-200 p-3 text-center text-sm dark:border-neutral-800">
          <Link to="/login" className="font-medium text-rose-600 hover:underline dark:text-rose-400">
            {t('chat.signIn')}
          </Link>
        </p>
      )}
    </section>
  );
}
