import { MAX_CHAT_MESSAGE_LENGTH } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';

/** The line a signed-in viewer writes in; the server's refusal (slow mode, a ban) shows beneath it. */
export function ChatForm({ send }: { send: (content: string) => Promise<unknown> }) {
  const { t } = useTranslation('live');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const blank = text.trim().length === 0;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blank || busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      await send(text.trim());
      setText('');
    } catch (err) {
      setRefusal(errorMessage(err, t('chat.sendFailed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="border-t border-neutral-200 p-3 dark:border-neutral-800">
      <div className="flex items-center gap-2">
        <input
          aria-label={t('chat.messageLabel')}
          placeholder={t('chat.placeholder')}
          value={text}
          maxLength={MAX_CHAT_MESSAGE_LENGTH}
          onChange={(e) => setText(e.target.value)}
          className="h-9 min-w-0 flex-1 rounded-full border border-neutral-300 bg-white px-3 text-sm focus:border-rose-500 focus:outline-none focus:ring-2 focus:ring-rose-500/30 dark:border-neutral-700 dark:bg-neutral-900"
        />
        <Button type="submit" size="sm" variant="primary" disabled={blank || busy}>
          {t('chat.send')}
        </Button>
      </div>
      <div className="mt-1 flex items-start justify-between gap-2 text-xs">
        <p role="alert" className="text-red-600 dark:text-red-400">
          {refusal}
        </p>
        <span className="shrink-0 tabular-nums text-neutral-500" aria-label={t('chat.charactersUsed')}>
          {text.length}/{MAX_CHAT_MESSAGE_LENGTH}
        </span>
      </div>
    </form>
  );
}
