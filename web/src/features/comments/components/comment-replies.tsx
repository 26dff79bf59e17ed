import type { Comment, CommentPage } from '@reelhouse/contract';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Spinner } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { addComment, commentKeys, useReplies } from '../api/comments.api';
import type { CommentViewer, Notify } from './comment-types';

interface CommentRepliesProps {
  comment: Comment;
  videoId: string;
  viewer: CommentViewer | null;
  notify: Notify;
  onCountChange: (replyCount: number) => void;
  /** Draws one reply (the comment item, passed in so the two modules do not import each other). */
  renderReply: (reply: Comment, handlers: { onSaved: (c: Comment) => void; onDeleted: (id: string) => void }) => ReactNode;
}

/** A top-level comment's thread: the reply count, "show replies", the replies and a reply box. */
export function CommentReplies({ comment, videoId, viewer, notify, onCountChange, renderReply }: CommentRepliesProps) {
  const { t } = useTranslation('comments');
  const [open, setOpen] = useState(false);
  const [replying, setReplying] = useState(false);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const q = useReplies(comment._id, open);
  const replies = q.data?.pages.flatMap((p) => p.comments) ?? [];
  const key = commentKeys.replies(comment._id);
  const edit = (fn: (list: Comment[]) => Comment[]) =>
    qc.setQueryData<InfiniteData<CommentPage, number>>(key, (old) =>
      old ? { ...old, pages: old.pages.map((p) => ({ ...p, comments: fn(p.comments) })) } : old,
    );

  async function submit(e: FormEvent) {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setBusy(true);
    try {
      await addComment(videoId, text, comment._id);
      setDraft('');
      setReplying(false);
      onCountChange(comment.replyCount + 1);
      setOpen(true);
      await qc.invalidateQueries({ queryKey: key });
    } catch (err) {
      if (isApiError(err, 401)) notify(t('loginToComment'), 'error');
      else notify(t('addFailed', { error: errorMessage(err) }), 'error');
    } finally {
      setBusy(false);
    }
  }

  const count = comment.replyCount;
  return (
    <div className="mt-1">
      <div className="flex items-center gap-2">
        {viewer && (
          <Button size="sm" variant="ghost" onClick={() => setReplying((r) => !r)} aria-expanded={replying}>
            {t('replies.reply')}
          </Button>
        )}
        {count > 0 && (
          <button
            type="button"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            className="rounded-full px-3 py-1 text-sm font-medium text-sky-700 hover:bg-sky-50 dark:text-sky-400 dark:hover:bg-neutral-800"
          >
            {open ? t('replies.hide') : t('replies.show', { count })}
          </button>
        )}
      </div>
      {replying && (
        <form onSubmit={submit} className="mt-2 flex flex-col gap-2">
          <label htmlFor={`reply-${comment._id}`} className="sr-only">
            {t('replies.replyTo', { username: comment.owner.username })}
          </label>
          <textarea
            id={`reply-${comment._id}`}
            rows={2}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder={t('replies.placeholder')}
            className="w-full resize-y border-b border-neutral-300 bg-transparent px-1 py-1 text-sm focus:border-neutral-900 focus:outline-none dark:border-neutral-700 dark:focus:border-neutral-100"
          />
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="ghost" onClick={() => setReplying(false)}>
              {t('cancel')}
            </Button>
            <Button size="sm" type="submit" variant="primary" disabled={busy}>
              {t('replies.reply')}
            </Button>
          </div>
        </form>
      )}
      {open &&
        (q.isPending ? (
          <Spinner label={t('replies.loading')} />
        ) : (
          <ul className="mt-3 flex flex-col gap-4" aria-label={t('replies.label', { username: comment.owner.username })}>
            {replies.map((r) =>
              renderReply(r, {
                onSaved: (c) => edit((list) => list.map((x) => (x._id === c._id ? { ...x, ...c } : x))),
                onDeleted: (id) => {
                  edit((list) => list.filter((x) => x._id !== id));
                  onCountChange(Math.max(0, count - 1));
                },
              }),
            )}
          </ul>
        ))}
      {open && q.hasNextPage && (
        <Button size="sm" variant="ghost" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {t('replies.showMore')}
        </Button>
      )}
    </div>
  );
}
