import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTOPLAY_STORAGE_KEY, readAutoplay, secondsLeft, useCountdown, writeAutoplay } from './autoplay';

describe('autoplay setting', () => {
  it('is on until turned off, and remembered', () => {
    localStorage.removeItem(AUTOPLAY_STORAGE_KEY);
    expect(readAutoplay(localStorage)).toBe(true);
    writeAutoplay(localStorage, false);
    expect(readAutoplay(localStorage)).toBe(false);
    writeAutoplay(localStorage, true);
    expect(readAutoplay(localStorage)).toBe(true);
    expect(readAutoplay(null)).toBe(true);
  });
});

describe('countdown', () => {
  it('counts whole seconds down to 0', () => {
    expect(secondsLeft(1000, 1000, 5)).toBe(5);
    expect(secondsLeft(1000, 1001, 5)).toBe(5);
    expect(secondsLeft(1000, 2000, 5)).toBe(4);
    expect(secondsLeft(1000, 5999, 5)).toBe(1);
    expect(secondsLeft(1000, 6000, 5)).toBe(0);
    expect(secondsLeft(1000, 9000, 5)).toBe(0);
  });

  describe('useCountdown', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('calls onDone once when it reaches 0, and never after unmounting', () => {
      const onDone = vi.fn();
      const { result } = renderHook(() => useCountdown(5, onDone));
      expect(result.current).toBe(5);
      act(() => void vi.advanceTimersByTime(2100));
      expect(result.current).toBe(3);
      act(() => void vi.advanceTimersByTime(3000));
      expect(result.current).toBe(0);
      act(() => void vi.advanceTimersByTime(3000));
      expect(onDone).toHaveBeenCalledTimes(1);

      const cancelled = vi.fn();
      const second = renderHook(() => useCountdown(5, cancelled));
      act(() => void vi.advanceTimersByTime(1000));
      second.unmount();
      act(() => void vi.advanceTimersByTime(10_000));
      expect(cancelled).not.toHaveBeenCalled();
    });
  });
});
