import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ThumbUpIcon } from '@/components/ui/icons';
import { compactNumber } from '@/lib/format';
import { cn } from '@/lib/cn';
import { toggleLike, type LikeTarget } from '../api/likes.api';
import { useOptimisticLike } from '../api/optimistic-like';

interface LikeButtonProps {
  contentType: LikeTarget;
  contentId: string;
  liked: boolean;
  count: number;
  signedIn: boolean;
  onSignedOut: () => void;
  onError: (message: string) => void;
  size?: 'sm' | 'md';
  send?: () => Promise<{ liked: boolean; likesCount: number }>;
}

export function LikeButton({ contentType, contentId, liked, count, signedIn, onSignedOut, onError, size = 'md', send }: LikeButtonProps) {
  const { t } = useTranslation('likes');
  const doSend = useCallback(() => (send ? send() : toggleLike(contentType, contentId)), [send, contentType, contentId]);
  const onFail = useCallback((e: unknown) => onError(e instanceof Error && e.message ? e.message : t('failed')), [onError, t]);
  const like = useOptimisticLike({ liked, count }, doSend, onFail);

  return (
    <button
      type="button"
      aria-pressed={like.liked}
      aria-label={contentType === 'comment' ? (like.liked ? t('unlikeComment') : t('likeComment')) : like.liked ? t('unlike') : t('like')}
      onClick={() => (signedIn ? void like.toggle() : onSignedOut())}
      className={cn(
        'inline-flex items-center gap-2 rounded-full font-medium transition-colors',
        size === 'sm'
          ? 'h-8 px-2 text-xs hover:bg-neutral-100 dark:hover:bg-neutral-800'
          : 'h-9 bg-neutral-100 px-4 text-sm hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700',
        like.liked && 'text-rose-600 dark:text-rose-400',
      )}
    >
      <ThumbUpIcon filled={like.liked} width={size === 'sm' ? 16 : 20} height={size === 'sm' ? 16 : 20} />
      <span data-testid="like-count">{compactNumber(like.count)}</span>
    </button>
  );
}
