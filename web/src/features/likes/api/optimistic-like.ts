import { useCallback, useState } from 'react';

export interface LikeState {
  liked: boolean;
  count: number;
}

/** The state shown right after a click, before the server answers. */
export function flipLike(s: LikeState): LikeState {
  return { liked: !s.liked, count: Math.max(0, s.count + (s.liked ? -1 : 1)) };
}

/**
 * Like toggling that updates at once and goes back to the previous state when the server
 * refuses. The server's answer, when it has one, is taken as the truth.
 */
export function useOptimisticLike(
  initial: LikeState,
  send: () => Promise<{ liked: boolean; likesCount: number } | null | undefined>,
  onError?: (error: unknown) => void,
) {
  const [state, setState] = useState(initial);
  const [pending, setPending] = useState(false);

  // New figures from the server replace the shown state (during render, so no frame shows the old one).
  const [shownFor, setShownFor] = useState({ liked: initial.liked, count: initial.count });
  if (shownFor.liked !== initial.liked || shownFor.count !== initial.count) {
    setShownFor({ liked: initial.liked, count: initial.count });
    setState({ liked: initial.liked, count: initial.count });
  }

  const toggle = useCallback(async () => {
    if (pending) return;
    const before = state;
    setState(flipLike(before));
    setPending(true);
    try {
      const result = await send();
      if (result && typeof result.liked === 'boolean') setState({ liked: result.liked, count: result.likesCount });
    } catch (error) {
      setState(before);
      onError?.(error);
    } finally {
      setPending(false);
    }
  }, [pending, state, send, onError]);

  return { ...state, pending, toggle };
}
