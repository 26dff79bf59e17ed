import type { Comment } from '@reelhouse/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PinIcon } from '@/components/ui/icons';
import { Avatar, Button } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { timeAgo } from '@/lib/format';
import { hostOf } from '@/lib/origin';
import { deleteComment, editComment, toggleHeart, togglePin } from '../api/comments.api';
import { CommentReplies } from './comment-replies';

import type { CommentViewer, Notify } from './comment-types';

export type { CommentViewer, Notify };

export interface CommentItemProps {
  comment: Comment;
  videoId: string;
  viewer: CommentViewer | null;
  isVideoOwner: boolean;
  onSaved: (c: Comment) => void;
  onDeleted: (id: string) => void;
  onPinned?: () => void;
  /** Told how the video's comment count moved (a reply added or removed). */
  onTotalChange?: (delta: number) => void;
  notify: Notify;
  renderActions?: (comment: Comment) => ReactNode;
  /** Renders a comment's text (links for its timestamps, say); plain text without it. */
  renderContent?: (content: string) => ReactNode;
}

/** "on other.site", linking to where a comment from another server was written. */
function RemoteCommentLink({ url }: { url: string | undefined }) {
  const { t } = useTranslation('comments');
  const host = hostOf(url);
  if (!url || !host) return null;
  return (
    <>
      {' '}
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className="text-neutral-600 underline-offset-2 hover:underline dark:text-neutral-400"
        data-testid="comment-origin"
      >
        <Trans t={t} i18nKey="item.origin" components={{ host: <bdi>{host}</bdi> }} /> <span className="sr-only">{t('item.newTab')}</span>
      </a>
    </>
  );
}

/** One comment, or one reply (a reply has no thread of its own and cannot be pinned). */
export function CommentItem({
  comment,
  videoId,
  viewer,
  isVideoOwner,
  onSaved,
  onDeleted,
  onPinned,
  onTotalChange,
  notify,
  renderActions,
  renderContent,
}: CommentItemProps) {
  const { t } = useTranslation('comments');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.content);
  const [busy, setBusy] = useState(false);
  const mine = viewer?._id === comment.owner._id;
  const isReply = comment.parentId !== null;

  async function save(e: FormEvent) {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setBusy(true);
    try {
      const updated = await editComment(comment._id, text);
      onSaved({ ...comment, ...updated, content: updated?.content ?? text });
      setEditing(false);
    } catch (err) {
      notify(t('item.updateFailed', { error: errorMessage(err) }), 'error');
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await deleteComment(comment._id);
      onDeleted(comment._id);
    } catch (err) {
      notify(t('item.deleteFailed', { error: errorMessage(err) }), 'error');
      setBusy(false);
    }
  }

  async function ownerAction(action: 'pin' | 'heart') {
    try {
      const updated = await (action === 'pin' ? togglePin(comment._id) : toggleHeart(comment._id));
      onSaved({ ...comment, ...updated });
      if (action === 'pin') onPinned?.();
    } catch (err) {
      const error = errorMessage(err);
      notify(action === 'pin' ? t('item.pinFailed', { error }) : t('item.heartFailed', { error }), 'error');
    }
  }

  return (
    <li className="flex gap-3" data-testid={isReply ? 'reply' : 'comment'}>
      <Link to={`/channel/${comment.owner.username}`} aria-label={t('item.channel', { username: comment.owner.username })}>
        <Avatar src={comment.owner.avatar.url} alt="" size={isReply ? 28 : 40} />
      </Link>
      <div className="min-w-0 flex-1">
        {comment.isPinned && (
          <p className="mb-0.5 flex items-center gap-1 text-xs font-medium text-neutral-500" data-testid="pinned-label">
            <PinIcon width={12} height={12} /> {t('item.pinned')}
          </p>
        )}
        <p className="text-xs">
          {/* A remote author's username is name@host already, so the handle reads @name@host; isolated for right-to-left pages. */}
          <Link to={`/channel/${comment.owner.username}`} className="font-semibold hover:underline">
            <bdi>@{comment.owner.username}</bdi>
          </Link>{' '}
          <span className="text-neutral-500">{timeAgo(comment.createdAt)}</span>
          {comment.remote && <RemoteCommentLink url={comment.url} />}
        </p>
        {editing ? (
          <form onSubmit={save} className="mt-1 flex flex-col gap-2">
            <label htmlFor={`edit-${comment._id}`} className="sr-only">
              {t('item.editLabel')}
            </label>
            <textarea
              id={`edit-${comment._id}`}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              rows={2}
              className="w-full rounded-lg border border-neutral-300 bg-transparent p-2 text-sm dark:border-neutral-700"
            />
            <div className="flex gap-2">
              <Button size="sm" type="submit" variant="primary" disabled={busy}>
                {t('item.save')}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setDraft(comment.content);
                  setEditing(false);
                }}
              >
                {t('cancel')}
              </Button>
            </div>
          </form>
        ) : (
          <p className="mt-1 whitespace-pre-wrap break-words text-sm">{renderContent ? renderContent(comment.content) : comment.content}</p>
        )}
        {!editing && (
          <div className="mt-1 flex flex-wrap items-center gap-1">
            {renderActions?.(comment)}
            {isVideoOwner ? (
              <button
                type="button"
                onClick={() => void ownerAction('heart')}
                aria-pressed={comment.isHearted}
                aria-label={comment.isHearted ? t('item.removeHeart') : t('item.heart')}
                className={cn(
                  'h-8 rounded-full px-2 text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800',
                  comment.isHearted ? 'text-rose-600' : 'text-neutral-500',
                )}
              >
                {comment.isHearted ? '♥' : '♡'}
              </button>
            ) : (
              comment.isHearted && (
                <span className="px-2 text-sm text-rose-600" title={t('item.hearted')} data-testid="hearted">
                  ♥ <span className="sr-only">{t('item.hearted')}</span>
                </span>
              )
            )}
            {isVideoOwner && !isReply && (
              <Button size="sm" variant="ghost" onClick={() => void ownerAction('pin')}>
                {comment.isPinned ? t('item.unpin') : t('item.pin')}
              </Button>
            )}
            {mine && (
              <>
                <Button size="sm" variant="ghost" onClick={() => setEditing(true)} aria-label={t('item.editLabel')}>
                  {t('item.edit')}
                </Button>
                <Button size="sm" variant="ghost" onClick={remove} disabled={busy} aria-label={t('item.deleteLabel')}>
                  {t('item.delete')}
                </Button>
              </>
            )}
          </div>
        )}
        {!isReply && (
          <CommentReplies
            comment={comment}
            videoId={videoId}
            viewer={viewer}
            notify={notify}
            onCountChange={(replyCount) => {
              onTotalChange?.(replyCount - comment.replyCount);
              onSaved({ ...comment, replyCount });
            }}
            renderReply={(reply, handlers) => (
              <CommentItem
                key={reply._id}
                comment={reply}
                videoId={videoId}
                viewer={viewer}
                isVideoOwner={isVideoOwner}
                notify={notify}
                renderActions={renderActions}
                renderContent={renderContent}
                {...handlers}
              />
            )}
          />
        )}
      </div>
    </li>
  );
}
