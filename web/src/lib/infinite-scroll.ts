export const SCROLL_THRESHOLD_PX = 100;
export const SCROLL_DEBOUNCE_MS = 1000;

export interface ScrollMetrics {
  scrollTop: number;
  viewportHeight: number;
  scrollHeight: number;
}

/** True when the viewport's bottom edge is within `threshold` px of the page bottom. */
export function isNearBottom(m: ScrollMetrics, threshold = SCROLL_THRESHOLD_PX): boolean {
  return m.scrollTop + m.viewportHeight >= m.scrollHeight - threshold;
}

export interface LoadState {
  hasNextPage: boolean;
  isFetching: boolean;
}

export function shouldLoadNextPage(m: ScrollMetrics, s: LoadState, threshold = SCROLL_THRESHOLD_PX): boolean {
  return s.hasNextPage && !s.isFetching && isNearBottom(m, threshold);
}

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
}

/** Trailing-edge debounce: runs once, `wait` ms after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, wait);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

export function windowScrollMetrics(): ScrollMetrics {
  const doc = document.documentElement;
  return {
    scrollTop: window.scrollY || doc.scrollTop,
    viewportHeight: window.innerHeight,
    scrollHeight: doc.scrollHeight,
  };
}
