import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveCountdown } from './live-countdown';

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-12-01T17:00:00Z') }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('LiveCountdown', () => {
  it('counts down to the scheduled start, second by second', () => {
    render(<LiveCountdown scheduledStart="2026-12-01T18:02:05Z" />);
    expect(screen.getByRole('timer').textContent).toBe('Live starts in 1 h 02 min');
    act(() => vi.advanceTimersByTime(3600_000));
    expect(screen.getByRole('timer').textContent).toBe('Live starts in 2 min 05 s');
    act(() => vi.advanceTimersByTime(122_000));
    expect(screen.getByRole('timer').textContent).toBe('Live starts in 3 s');
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByRole('timer').textContent).toBe('Starting soon');
  });

  it('waits for the stream when nothing is scheduled', () => {
    render(<LiveCountdown scheduledStart={null} />);
    expect(screen.getByRole('timer').textContent).toBe('Waiting for the stream to start');
  });
});
