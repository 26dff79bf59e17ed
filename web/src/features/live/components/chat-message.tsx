import type { ChatMessage } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/primitives';
import { formatDate } from '@/lib/format';

const clock = (iso: string) => formatDate(iso, { hour: '2-digit', minute: '2-digit' });

export interface ChatMessageRights {
  canDelete: boolean;
  canBan: boolean;
}

/** One line of the chat: who, when, what, and the actions the viewer may take on it. */
export function ChatMessageItem({
  message: m,
  rights,
  onDelete,
  onBan,
}: {
  message: ChatMessage;
  rights: ChatMessageRights;
  onDelete: () => void;
  onBan: (seconds: number) => void;
}) {
  const { t } = useTranslation('live');
  const [open, setOpen] = useState(false);
  const bans = [
    { seconds: 5 * 60, label: t('chat.banMinutes') },
    { seconds: 24 * 3600, label: t('chat.banDay') },
  ];
  const name = m.author.fullName || m.author.username;
  const hasActions = rights.canDelete || rights.canBan;
  return (
    <li className="group flex gap-2 rounded-lg px-2 py-1.5 hover:bg-neutral-100 dark:hover:bg-neutral-800/60" data-testid="chat-message">
      <Avatar src={m.author.avatar.url} alt="" size={24} className="mt-0.5" />
      <div className="min-w-0 flex-1 text-sm leading-5">
        <span className="me-1.5 text-xs text-neutral-500 tabular-nums">{clock(m.createdAt)}</span>
        <span className="me-1.5 font-semibold text-neutral-700 dark:text-neutral-300">{name}</span>
        <span className="break-words text-neutral-900 dark:text-neutral-100">{m.content}</span>
        {open && hasActions && (
          <div className="mt-1 flex flex-wrap gap-1">
            {rights.canDelete && (
              <button
                type="button"
                onClick={onDelete}
                className="rounded-full bg-neutral-200 px-2 py-0.5 text-xs font-medium hover:bg-neutral-300 dark:bg-neutral-700 dark:hover:bg-neutral-600"
              >
                {t('chat.delete')}
              </button>
            )}
            {rights.canBan &&
              bans.map((b) => (
                <button
                  key={b.seconds}
                  type="button"
                  onClick={() => {
                    setOpen(false);
                    onBan(b.seconds);
                  }}
                  className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 hover:bg-red-200 dark:bg-red-950 dark:text-red-200 dark:hover:bg-red-900"
                >
                  {b.label}
                </button>
              ))}
          </div>
        )}
      </div>
      {hasActions && (
        <button
          type="button"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-label={t('chat.actionsFor', { name })}
          className="h-6 w-6 shrink-0 rounded-full text-neutral-500 opacity-60 hover:bg-neutral-200 hover:opacity-100 focus-visible:opacity-100 group-hover:opacity-100 dark:hover:bg-neutral-700"
        >
          <span aria-hidden="true">⋮</span>
        </button>
      )}
    </li>
  );
}
