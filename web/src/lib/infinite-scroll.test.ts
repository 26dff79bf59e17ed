import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce, isNearBottom, shouldLoadNextPage } from './infinite-scroll';

describe('isNearBottom', () => {
  it('is true within 100px of the bottom and false further up', () => {
    expect(isNearBottom({ scrollTop: 1000, viewportHeight: 800, scrollHeight: 1850 })).toBe(true); // 50px left
    expect(isNearBottom({ scrollTop: 950, viewportHeight: 800, scrollHeight: 1850 })).toBe(true); // exactly 100px
    expect(isNearBottom({ scrollTop: 949, viewportHeight: 800, scrollHeight: 1850 })).toBe(false); // 101px
    expect(isNearBottom({ scrollTop: 0, viewportHeight: 800, scrollHeight: 600 })).toBe(true); // no scrollbar
  });
});

describe('shouldLoadNextPage', () => {
  const bottom = { scrollTop: 1000, viewportHeight: 800, scrollHeight: 1800 };
  it('needs a next page, no fetch in flight and the bottom in reach', () => {
    expect(shouldLoadNextPage(bottom, { hasNextPage: true, isFetching: false })).toBe(true);
    expect(shouldLoadNextPage(bottom, { hasNextPage: false, isFetching: false })).toBe(false);
    expect(shouldLoadNextPage(bottom, { hasNextPage: true, isFetching: true })).toBe(false);
    expect(shouldLoadNextPage({ ...bottom, scrollTop: 0 }, { hasNextPage: true, isFetching: false })).toBe(false);
  });
});

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, 1 s after the last of a burst of calls, with the last arguments', () => {
    const fn = vi.fn();
    const d = debounce(fn, 1000);
    d(1);
    vi.advanceTimersByTime(600);
    d(2);
    vi.advanceTimersByTime(999);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(2);
  });

  it('can be cancelled', () => {
    const fn = vi.fn();
    const d = debounce(fn, 1000);
    d();
    d.cancel();
    vi.advanceTimersByTime(5000);
    expect(fn).not.toHaveBeenCalled();
  });
});
