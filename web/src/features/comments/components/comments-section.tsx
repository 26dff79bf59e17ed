import type { Comment } from '@reelhouse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, Button, Spinner } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { addComment, commentKeys, useCommentCache, useComments } from '../api/comments.api';
import { CommentItem } from './comment-item';
import type { CommentViewer, Notify } from './comment-types';

interface CommentsSectionProps {
  videoId: string;
  /** The video's owner pins and hearts comments. */
  videoOwnerId: string;
  /** The video's comment count, replies included (the heading's number). */
  commentsCount?: number;
  viewer: CommentViewer | null;
  notify: Notify;
  /** Extra controls under each comment and reply (the page puts a like button there). */
  renderActions?: (comment: Comment) => ReactNode;
  /** Renders each comment's and reply's text (the page links timestamps there). */
  renderContent?: (content: string) => ReactNode;
}

export function CommentsSection({ videoId, videoOwnerId, commentsCount, viewer, notify, renderActions, renderContent }: CommentsSectionProps) {
  const { t } = useTranslation('comments');
  const qc = useQueryClient();
  const q = useComments(videoId);
  const cache = useCommentCache(videoId);
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  // Said by screen readers once a comment is posted: the new comment appears above, out of their way.
  const [announcement, setAnnouncement] = useState('');
  const comments = q.data?.pages.flatMap((p) => p.comments) ?? [];
  // Comments and replies added or removed on this page since the count was read.
  const [delta, setDelta] = useState(0);
  // A fresh count from the server already holds them.
  const [deltaFor, setDeltaFor] = useState(commentsCount);
  if (deltaFor !== commentsCount) {
    setDeltaFor(commentsCount);
    setDelta(0);
  }
  const total = Math.max(0, (commentsCount ?? q.data?.pages[0]?.totalDocs ?? comments.length) + delta);
  const onTotalChange = (d: number) => setDelta((x) => x + d);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const text = content.trim();
    if (!text) return; // blank comments are ignored
    setBusy(true);
    try {
      const created = await addComment(videoId, text);
      cache.prepend(created);
      onTotalChange(1);
      setContent('');
      setAnnouncement(t('posted'));
    } catch (err) {
      if (isApiError(err, 401)) notify(t('loginToComment'), 'error');
      else notify(t('addFailed', { error: errorMessage(err) }), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="comments-heading" className="mt-6">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <h2 id="comments-heading" className="mb-4 text-lg font-bold">
        {t('heading', { count: total })}
      </h2>
      <form onSubmit={onSubmit} className="mb-6 flex gap-3">
        <Avatar src={viewer?.avatar.url} alt="" size={40} />
        <div className="flex flex-1 flex-col gap-2">
          <label htmlFor="new-comment" className="sr-only">
            {t('addLabel')}
          </label>
          <textarea
            id="new-comment"
            rows={2}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            placeholder={viewer ? t('addPlaceholder') : t('loginPlaceholder')}
            className="w-full resize-y border-b border-neutral-300 bg-transparent px-1 py-1 text-sm focus:border-neutral-900 focus:outline-none dark:border-neutral-700 dark:focus:border-neutral-100"
          />
          <div className="flex justify-end gap-2">
            {content && (
              <Button size="sm" variant="ghost" onClick={() => setContent('')}>
                {t('cancel')}
              </Button>
            )}
            <Button size="sm" type="submit" variant="primary" disabled={busy}>
              {t('submit')}
            </Button>
          </div>
        </div>
      </form>
      {q.isPending ? (
        <Spinner label={t('loading')} />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {isApiError(q.error, 401) ? t('unauthorized') : errorMessage(q.error, t('loadFailed'))}
        </p>
      ) : (
        <ul className="flex flex-col gap-5">
          {comments.map((c) => (
            <CommentItem
              key={c._id}
              comment={c}
              videoId={videoId}
              viewer={viewer}
              isVideoOwner={viewer?._id === videoOwnerId}
              onSaved={cache.replace}
              onDeleted={(id) => {
                cache.remove(id);
                // Its replies go with it.
                onTotalChange(-1 - c.replyCount);
              }}
              onTotalChange={onTotalChange}
              // A pin reorders the list (the pinned one comes first, another loses its pin).
              onPinned={() => void qc.invalidateQueries({ queryKey: commentKeys.list(videoId) })}
              notify={notify}
              renderActions={renderActions}
              renderContent={renderContent}
            />
          ))}
        </ul>
      )}
      {q.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button size="sm" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
            {t('showMore')}
          </Button>
        </div>
      )}
    </section>
  );
}
