import { useEffect, useLayoutEffect, useRef } from 'react';
import { SCROLL_DEBOUNCE_MS, debounce, shouldLoadNextPage, windowScrollMetrics } from '@/lib/infinite-scroll';

/** Calls loadMore when the window is scrolled within 100px of the bottom (checked 1 s after scrolling stops). */
export function useInfiniteScroll(opts: { hasNextPage: boolean; isFetching: boolean; loadMore: () => void }) {
  const latest = useRef(opts);
  useLayoutEffect(() => {
    latest.current = opts;
  });

  useEffect(() => {
    const check = () => {
      const { hasNextPage, isFetching, loadMore } = latest.current;
      if (shouldLoadNextPage(windowScrollMetrics(), { hasNextPage, isFetching })) loadMore();
    };
    const onScroll = debounce(check, SCROLL_DEBOUNCE_MS);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      onScroll.cancel();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, []);

  // A page that does not fill the screen cannot be scrolled: check again after each load.
  useEffect(() => {
    if (opts.isFetching || !opts.hasNextPage) return;
    const id = requestAnimationFrame(() => {
      const { hasNextPage, isFetching, loadMore } = latest.current;
      const m = windowScrollMetrics();
      if (m.scrollHeight <= m.viewportHeight + 1 && shouldLoadNextPage(m, { hasNextPage, isFetching })) loadMore();
    });
    return () => cancelAnimationFrame(id);
  }, [opts.isFetching, opts.hasNextPage]);
}
