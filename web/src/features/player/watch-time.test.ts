import { describe, expect, it } from 'vitest';
import { shouldCountView, WatchTimeTracker } from './watch-time';

describe('shouldCountView', () => {
  it('counts at 30 s watched whatever the duration', () => {
    expect(shouldCountView(29.9, 600)).toBe(false);
    expect(shouldCountView(30, 600)).toBe(true);
    expect(shouldCountView(30, 0)).toBe(true);
    expect(shouldCountView(30, Number.NaN)).toBe(true);
  });

  it('counts short videos at 95% of the duration', () => {
    expect(shouldCountView(9.4, 10)).toBe(false);
    expect(shouldCountView(9.5, 10)).toBe(true);
    expect(shouldCountView(18.9, 20)).toBe(false);
    expect(shouldCountView(19, 20)).toBe(true);
  });

  it('never counts nothing watched, even for a zero-length video', () => {
    expect(shouldCountView(0, 0)).toBe(false);
    expect(shouldCountView(0, 10)).toBe(false);
    expect(shouldCountView(Number.NaN, 10)).toBe(false);
  });

  it('uses 95% only when it comes before 30 s', () => {
    expect(shouldCountView(31 * 0.95, 31)).toBe(true);
    expect(shouldCountView(29, 100)).toBe(false);
  });
});

/** Feeds positions like timeupdate does, every `step` seconds, from `from` to `to`. */
function play(tracker: WatchTimeTracker, from: number, to: number, step = 0.25): void {
  for (let t = from; t <= to + 1e-9; t += step) tracker.progress(t);
}

describe('WatchTimeTracker', () => {
  it('sums continuous playback', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 12);
    expect(tracker.watched).toBeCloseTo(12, 6);
  });

  it('does not count a seek forward as watched time', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 5);
    tracker.interrupt();
    play(tracker, 100, 110);
    expect(tracker.watched).toBeCloseTo(15, 6);
  });

  it('treats an unannounced long jump as a seek', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 5);
    tracker.progress(60);
    play(tracker, 60.25, 61);
    expect(tracker.watched).toBeCloseTo(6, 6);
  });

  it('does not count a jump backward, and counts the replayed part again', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 10);
    tracker.progress(2);
    play(tracker, 2.25, 10);
    expect(tracker.watched).toBeCloseTo(18, 6);
  });

  it('ignores repeated positions while paused', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 3);
    for (let i = 0; i < 20; i++) tracker.progress(3);
    expect(tracker.watched).toBeCloseTo(3, 6);
  });

  it('counts fast playback by media time, with larger steps', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 30, 0.5);
    expect(tracker.watched).toBeCloseTo(30, 6);
    expect(shouldCountView(tracker.watched, 600)).toBe(true);
  });

  it('ignores non-finite positions and resets', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 4);
    tracker.progress(Number.NaN);
    tracker.progress(4.25);
    expect(tracker.watched).toBeCloseTo(4.25, 6);
    tracker.reset();
    expect(tracker.watched).toBe(0);
    tracker.progress(10);
    expect(tracker.watched).toBe(0);
  });

  it('reaches the view threshold only after 30 s actually played, not by seeking there', () => {
    const tracker = new WatchTimeTracker();
    play(tracker, 0, 10);
    tracker.interrupt();
    play(tracker, 50, 60);
    expect(shouldCountView(tracker.watched, 600)).toBe(false);
    play(tracker, 60.25, 70);
    expect(shouldCountView(tracker.watched, 600)).toBe(true);
  });
});
