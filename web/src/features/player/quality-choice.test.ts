import { VideoQualityList, type VideoQuality } from '@vidstack/react';
import { describe, expect, it } from 'vitest';
import { keepQualityChoice } from './quality-choice';

// vidstack's own list, driven the way its HLS provider drives it: through the list's internal
// add and select methods and its automatic mode (symbols it does not export, found by name).
function internal(name: string): symbol {
  let proto: object | null = new VideoQualityList();
  while (proto) {
    const found = Object.getOwnPropertySymbols(proto).find((s) => s.description === name);
    if (found) return found;
    proto = Object.getPrototypeOf(proto);
  }
  throw new Error(`vidstack's quality list no longer has ${name}`);
}
const ADD = internal('LIST_ADD');
const SELECT = internal('LIST_SELECT');
const SET_AUTO = internal('SET_AUTO_QUALITY');
const ENABLE_AUTO = internal('ENABLE_AUTO_QUALITY');

type Driven = VideoQualityList & Record<symbol, (...args: unknown[]) => void>;

function ladder() {
  const list = new VideoQualityList() as Driven;
  const rungs = [240, 360, 720].map(
    (height) => ({ id: `${height}p`, width: (height * 16) / 9, height, codec: 'avc1', bitrate: height * 1000 }) as VideoQuality,
  );
  for (const rung of rungs) list[ADD](rung);
  // What hls.js pins the stream to: vidstack's provider sets it from every change of the list.
  const pinned: (string | null)[] = [];
  list.addEventListener('change', () => {
    if (!list.auto) pinned.push(list.selected?.id ?? null);
  });
  /** hls.js reporting the rung now playing, as the provider passes it on. */
  const report = (rung: VideoQuality) => list[SELECT](rung, true, new Event('hls-level-switched'));
  /** The player's own pinning, for a pick vidstack does not pin. */
  const pin = (index: number) => pinned.push(list.toArray()[index]?.id ?? null);
  return { list, rungs, pinned, report, pin };
}

describe('keepQualityChoice', () => {
  it('puts back a rung picked by hand when a late report of the old rung arrives', () => {
    const { list, rungs, pinned, report, pin } = ladder();
    const stop = keepQualityChoice(list, pin);
    report(rungs[1]!); // playing 360p
    rungs[0]!.selected = true; // the viewer picks 240p
    report(rungs[1]!); // a 360p fragment still starts to play
    expect(list.selected?.id).toBe('240p');
    expect(pinned.at(-1)).toBe('240p');
    report(rungs[0]!); // the chosen rung arrives
    expect(list.selected?.id).toBe('240p');
    stop();
  });

  it('leaves reports alone in automatic mode, and after the viewer goes back to it', () => {
    const { list, rungs, pinned, report, pin } = ladder();
    const stop = keepQualityChoice(list, pin);
    // The provider starts the list in automatic mode and says how to go back to it.
    list[SET_AUTO](true);
    list[ENABLE_AUTO] = () => {};
    report(rungs[2]!);
    report(rungs[0]!);
    expect(list.selected?.id).toBe('240p');
    rungs[2]!.selected = true; // by hand
    list.autoSelect(); // and back to automatic
    report(rungs[1]!);
    expect(list.selected?.id).toBe('360p');
    expect(list.auto).toBe(true);
    expect(pinned).toEqual(['720p']);
    stop();
  });

  it('pins the rung shown as playing when the viewer picks it in automatic mode', async () => {
    const { list, rungs, pinned, report, pin } = ladder();
    const stop = keepQualityChoice(list, pin);
    list[SET_AUTO](true);
    report(rungs[0]!); // automatic mode starts on 240p
    rungs[0]!.selected = true; // the viewer picks 240p: no selection changes
    await Promise.resolve();
    expect(list.auto).toBe(false);
    expect(pinned).toEqual(['240p']);
    report(rungs[1]!); // the switch automatic mode had under way arrives
    expect(list.selected?.id).toBe('240p');
    expect(pinned.at(-1)).toBe('240p');
    stop();
  });

  it('follows a new choice by hand, and stops when detached', () => {
    const { list, rungs, report, pin } = ladder();
    const stop = keepQualityChoice(list, pin);
    rungs[0]!.selected = true;
    rungs[2]!.selected = true;
    report(rungs[1]!);
    expect(list.selected?.id).toBe('720p');
    stop();
    report(rungs[1]!);
    expect(list.selected?.id).toBe('360p');
  });

  it('without it, a late report undoes the choice (what it guards against)', () => {
    const { rungs, pinned, report } = ladder();
    rungs[0]!.selected = true;
    report(rungs[1]!);
    expect(pinned.at(-1)).toBe('360p');
  });
});
