import type { Comment } from '@reelhouse/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar, Button, Spinner } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { timeAgo } from '@/lib/format';
import { addComment, deleteComment, editComment, useCommentCache, useComments } from '../api/comments.api';

interface Viewer {
  _id: string;
  username: string;
  avatar: { url: string };
}

interface CommentsSectionProps {
  videoId: string;
  viewer: Viewer | null;
  notify: (message: string, kind: 'error' | 'success' | 'info') => void;
  /** Extra controls under each comment (the page puts a like button there). */
  renderActions?: (comment: Comment) => ReactNode;
}

export function CommentsSection({ videoId, viewer, notify, renderActions }: CommentsSectionProps) {
  const q = useComments(videoId);
  const cache = useCommentCache(videoId);
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  const comments = q.data?.pages.flatMap((p) => p.comments) ?? [];
  const total = q.data?.pages[0]?.totalDocs ?? comments.length;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const text = content.trim();
    if (!text) return; // blank comments are ignored
    setBusy(true);
    try {
      const created = await addComment(videoId, text);
      cache.prepend(created);
      setContent('');
    } catch (err) {
      if (isApiError(err, 401)) notify('Please login to add comments', 'error');
      else notify(`Failed to add comment: ${errorMessage(err)}`, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="comments-heading" className="mt-6">
      <h2 id="comments-heading" className="mb-4 text-lg font-bold">
        {total} {total === 1 ? 'Comment' : 'Comments'}
      </h2>
      <form onSubmit={onSubmit} className="mb-6 flex gap-3">
        <Avatar src={viewer?.avatar.url} alt="" size={40} />
        <div className="flex flex-1 flex-col gap-2">
          <label htmlFor="new-comment" className="sr-only">
            Add a comment
          </label>
          <textarea
            id="new-comment"
            rows={2}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            placeholder={viewer ? 'Add a comment…' : 'Log in to add a comment…'}
            className="w-full resize-y border-b border-neutral-300 bg-transparent px-1 py-1 text-sm focus:border-neutral-900 focus:outline-none dark:border-neutral-700 dark:focus:border-neutral-100"
          />
          <div className="flex justify-end gap-2">
            {content && (
              <Button size="sm" variant="ghost" onClick={() => setContent('')}>
                Cancel
              </Button>
            )}
            <Button size="sm" type="submit" variant="primary" disabled={busy}>
              Comment
            </Button>
          </div>
        </div>
      </form>
      {q.isPending ? (
        <Spinner label="Loading comments" />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {isApiError(q.error, 401) ? '401: Unauthorized Access' : errorMessage(q.error, 'Failed to load comments')}
        </p>
      ) : (
        <ul className="flex flex-col gap-5">
          {comments.map((c) => (
            <CommentItem
              key={c._id}
              comment={c}
              mine={viewer?._id === c.owner._id}
              onSaved={cache.replace}
              onDeleted={cache.remove}
              notify={notify}
              actions={renderActions?.(c)}
            />
          ))}
        </ul>
      )}
      {q.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button size="sm" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
            Show more comments
          </Button>
        </div>
      )}
    </section>
  );
}

interface CommentItemProps {
  comment: Comment;
  mine: boolean;
  onSaved: (c: Comment) => void;
  onDeleted: (id: string) => void;
  notify: CommentsSectionProps['notify'];
  actions?: ReactNode;
}

function CommentItem({ comment, mine, onSaved, onDeleted, notify, actions }: CommentItemProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.content);
  const [busy, setBusy] = useState(false);

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
      notify(`Failed to update comment: ${errorMessage(err)}`, 'error');
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
      notify(`Failed to delete comment: ${errorMessage(err)}`, 'error');
      setBusy(false);
    }
  }

  return (
    <li className="flex gap-3" data-testid="comment">
      <Link to={`/channel/${comment.owner.username}`} aria-label={`${comment.owner.username} channel`}>
        <Avatar src={comment.owner.avatar.url} alt="" size={40} />
      </Link>
      <div className="min-w-0 flex-1">
        <p className="text-xs">
          <Link to={`/channel/${comment.owner.username}`} className="font-semibold hover:underline">
            @{comment.owner.username}
          </Link>{' '}
          <span className="text-neutral-500">{timeAgo(comment.createdAt)}</span>
        </p>
        {editing ? (
          <form onSubmit={save} className="mt-1 flex flex-col gap-2">
            <label htmlFor={`edit-${comment._id}`} className="sr-only">
              Edit comment
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
                Save
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setDraft(comment.content);
                  setEditing(false);
                }}
              >
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <p className="mt-1 whitespace-pre-wrap break-words text-sm">{comment.content}</p>
        )}
        {!editing && (
          <div className="mt-1 flex items-center gap-1">
            {actions}
            {mine && (
              <>
                <Button size="sm" variant="ghost" onClick={() => setEditing(true)} aria-label="Edit comment">
                  Edit
                </Button>
                <Button size="sm" variant="ghost" onClick={remove} disabled={busy} aria-label="Delete comment">
                  Delete
                </Button>
              </>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
