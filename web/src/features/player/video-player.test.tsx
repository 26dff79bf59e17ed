import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VideoPlayer } from './video-player';
import type { VideoPlayerProps } from './types';

beforeAll(() => {
  // jsdom lacks the layout observers and media queries the player subscribes to.
  const observer = class {
    observe(_target?: Element) {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  };
  globalThis.ResizeObserver ??= observer as unknown as typeof ResizeObserver;
  // The player loads when it scrolls into view; in jsdom everything is in view.
  globalThis.IntersectionObserver ??= class extends observer {
    constructor(private readonly callback: IntersectionObserverCallback) {
      super();
    }
    override observe(target: Element) {
      this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
    }
  } as unknown as typeof IntersectionObserver;
  // Nor does it have text track cues, which vidstack creates for its own caption machinery.
  (window as unknown as { VTTCue: unknown }).VTTCue ??= class extends EventTarget {
    constructor(
      public startTime: number,
      public endTime: number,
      public text: string,
    ) {
      super();
    }
  };
  // vidstack's slider preview measures itself on animation frames, and one queued before an
  // unmount throws in jsdom; layout is not what these tests check.
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.stubGlobal('cancelAnimationFrame', () => {});
  // jsdom plays nothing and says so; tell the player mp4 is playable so it picks its provider
  // instead of probing the URL and reporting a media error.
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === 'video/mp4' ? 'maybe' : ''));
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});

afterEach(cleanup);

function props(overrides: Partial<VideoPlayerProps> = {}): VideoPlayerProps {
  return {
    videoId: 'v1',
    title: 'Test pattern',
    src: '/media/videos/v1/fast.mp4',
    hlsSrc: null,
    storyboard: null,
    duration: 40,
    theater: false,
    onTheaterChange: vi.fn(),
    onViewCounted: vi.fn(),
    ...overrides,
  };
}

describe('VideoPlayer', () => {
  it('has a labelled theater button that asks for the other mode', async () => {
    const p = props();
    const { rerender } = render(<VideoPlayer {...p} />);
    const button = await screen.findByRole('button', { name: 'Theater mode' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    expect(p.onTheaterChange).toHaveBeenCalledWith(true);

    rerender(<VideoPlayer {...p} theater />);
    const exit = await screen.findByRole('button', { name: 'Default view' });
    expect(exit.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(exit);
    expect(p.onTheaterChange).toHaveBeenLastCalledWith(false);
  });

  it('toggles theater with t from the page, but not while typing', async () => {
    const p = props({ theater: true });
    render(
      <>
        <VideoPlayer {...p} />
        <input aria-label="Comment" />
      </>,
    );
    await screen.findByRole('button', { name: 'Default view' });
    act(() => {
      fireEvent.keyDown(document.body, { key: 't' });
    });
    expect(p.onTheaterChange).toHaveBeenCalledTimes(1);
    expect(p.onTheaterChange).toHaveBeenCalledWith(false);

    const input = screen.getByRole('textbox', { name: 'Comment' });
    input.focus();
    fireEvent.keyDown(input, { key: 't' });
    expect(p.onTheaterChange).toHaveBeenCalledTimes(1);
  });

  it('prevents the page from scrolling on shortcut keys only', async () => {
    render(<VideoPlayer {...props()} />);
    await screen.findByRole('button', { name: 'Theater mode' });
    const down = new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true });
    document.body.dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    document.body.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(false);
  });

  it('stops listening for shortcuts once unmounted', async () => {
    const p = props();
    const { unmount } = render(<VideoPlayer {...p} />);
    await screen.findByRole('button', { name: 'Theater mode' });
    unmount();
    fireEvent.keyDown(document.body, { key: 't' });
    expect(p.onTheaterChange).not.toHaveBeenCalled();
  });
});
