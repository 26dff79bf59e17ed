import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useViewCounter, type ViewCounter } from './use-view-counter';

function play(counter: ViewCounter, from: number, to: number, step = 0.25, mediaDuration = Number.NaN) {
  for (let t = from; t <= to + 1e-9; t += step) counter.onTime(t, false, mediaDuration);
}

describe('useViewCounter', () => {
  it('counts one view after 30 s actually played, not after seeking past it', () => {
    const onViewCounted = vi.fn();
    const { result } = renderHook(() => useViewCounter({ videoId: 'v1', duration: 600, onViewCounted }));
    play(result.current, 0, 10);
    result.current.onInterrupt();
    play(result.current, 300, 318);
    expect(onViewCounted).not.toHaveBeenCalled();
    play(result.current, 318.25, 322);
    expect(onViewCounted).toHaveBeenCalledTimes(1);
    play(result.current, 322.25, 400);
    expect(onViewCounted).toHaveBeenCalledTimes(1);
  });

  it('ignores positions reported while seeking', () => {
    const onViewCounted = vi.fn();
    const { result } = renderHook(() => useViewCounter({ videoId: 'v1', duration: 600, onViewCounted }));
    play(result.current, 0, 20);
    // A scrub reported position by position while the seek is under way.
    for (let t = 20; t <= 60; t += 0.5) result.current.onTime(t, true, 600);
    play(result.current, 60, 65);
    expect(onViewCounted).not.toHaveBeenCalled();
  });

  it('counts a short video at 95% of its duration', () => {
    const onViewCounted = vi.fn();
    const { result } = renderHook(() => useViewCounter({ videoId: 'v1', duration: 10, onViewCounted }));
    play(result.current, 0, 9.25);
    expect(onViewCounted).not.toHaveBeenCalled();
    play(result.current, 9.5, 9.5);
    expect(onViewCounted).toHaveBeenCalledTimes(1);
  });

  it("falls back to the media's duration when the prop has none", () => {
    const onViewCounted = vi.fn();
    const { result } = renderHook(() => useViewCounter({ videoId: 'v1', duration: 0, onViewCounted }));
    play(result.current, 0, 9.5, 0.25, 10);
    expect(onViewCounted).toHaveBeenCalledTimes(1);
  });

  it('calls the latest callback, and counts again only for another video', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { result, rerender } = renderHook((props) => useViewCounter(props), {
      initialProps: { videoId: 'v1', duration: 600, onViewCounted: first },
    });
    play(result.current, 0, 10);
    rerender({ videoId: 'v1', duration: 600, onViewCounted: second });
    play(result.current, 10.25, 31);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);

    rerender({ videoId: 'v2', duration: 600, onViewCounted: second });
    play(result.current, 0, 29);
    expect(second).toHaveBeenCalledTimes(1);
    play(result.current, 29.25, 31);
    expect(second).toHaveBeenCalledTimes(2);
  });
});
