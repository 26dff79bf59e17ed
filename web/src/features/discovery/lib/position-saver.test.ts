import { describe, expect, it } from 'vitest';
import { PositionSaver } from './position-saver';

function setup() {
  let now = 0;
  const saves: (number | null)[] = [];
  const saver = new PositionSaver({ save: (p) => saves.push(p), intervalMs: 10_000, now: () => now });
  return { saver, saves, tick: (ms: number) => (now += ms) };
}

describe('position saver', () => {
  it('saves at most once per interval while playing', () => {
    const { saver, saves, tick } = setup();
    for (let t = 0; t <= 25; t += 0.25) {
      saver.update(t, 600);
      tick(250);
    }
    expect(saves).toEqual([10, 20]);
  });

  it('saves at once on pause or leave, but not the same place twice', () => {
    const { saver, saves, tick } = setup();
    saver.flush();
    expect(saves).toEqual([]);
    saver.update(3.47, 600);
    tick(1000);
    saver.flush();
    saver.flush();
    expect(saves).toEqual([3.4]);
  });

  it('forgets a video watched to the end', () => {
    const { saver, saves, tick } = setup();
    saver.update(30, 600);
    tick(1000);
    saver.flush();
    saver.ended();
    expect(saves).toEqual([30, null]);
    const other = setup();
    other.saver.update(596, 600);
    other.saver.flush();
    expect(other.saves).toEqual([null]);
  });
});
