import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachPlayer, playerTime, seekPlayer } from './player-control';

describe('player control', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('seeks the attached player, and nothing once it detached', () => {
    const seeks: number[] = [];
    let time = 0;
    const detach = attachPlayer({
      seek: (s) => {
        seeks.push(s);
        time = s;
      },
      currentTime: () => time,
    });
    expect(seekPlayer(12.5)).toBe(true);
    expect(playerTime()).toBe(12.5);
    expect(seekPlayer(-1)).toBe(false);
    expect(seekPlayer(Number.NaN)).toBe(false);
    detach();
    expect(playerTime()).toBeNull();
    expect(seeks).toEqual([12.5]);
  });

  it('a seek asked before the player came is made when it attaches, if it came soon', () => {
    vi.useFakeTimers();
    const seeks: number[] = [];
    expect(seekPlayer(3)).toBe(false);
    vi.advanceTimersByTime(2_000);
    const detach = attachPlayer({ seek: (s) => seeks.push(s), currentTime: () => 0 });
    expect(seeks).toEqual([3]);
    detach();
    // Asked too long before: another page's player must not jump there.
    seekPlayer(40);
    vi.advanceTimersByTime(11_000);
    const later = attachPlayer({ seek: (s) => seeks.push(s), currentTime: () => 0 });
    expect(seeks).toEqual([3]);
    later();
  });

  it('a stale detach leaves a newer player attached', () => {
    const first = attachPlayer({ seek: () => {}, currentTime: () => 1 });
    const second = attachPlayer({ seek: () => {}, currentTime: () => 2 });
    first();
    expect(playerTime()).toBe(2);
    second();
    expect(playerTime()).toBeNull();
  });
});
