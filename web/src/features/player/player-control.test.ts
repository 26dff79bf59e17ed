import { describe, expect, it } from 'vitest';
import { attachPlayer, playerTime, seekPlayer } from './player-control';

describe('player control', () => {
  it('seeks the attached player, and nothing once it detached', () => {
    const seeks: number[] = [];
    let time = 0;
    expect(seekPlayer(5)).toBe(false);
    const detach = attachPlayer({ seek: (s) => { seeks.push(s); time = s; }, currentTime: () => time });
    expect(seekPlayer(12.5)).toBe(true);
    expect(playerTime()).toBe(12.5);
    expect(seekPlayer(-1)).toBe(false);
    expect(seekPlayer(Number.NaN)).toBe(false);
    detach();
    expect(seekPlayer(3)).toBe(false);
    expect(playerTime()).toBeNull();
    expect(seeks).toEqual([12.5]);
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
