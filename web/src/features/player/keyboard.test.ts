import { describe, expect, it } from 'vitest';
import { describeCommand, keyToAction, planAction, shouldHandleKey, type PlayerSnapshot } from './keyboard';

describe('keyToAction', () => {
  it('maps play/pause, seeking and volume keys', () => {
    expect(keyToAction({ key: ' ' })).toEqual({ type: 'togglePlay' });
    expect(keyToAction({ key: 'k' })).toEqual({ type: 'togglePlay' });
    expect(keyToAction({ key: 'K' })).toEqual({ type: 'togglePlay' });
    expect(keyToAction({ key: 'j' })).toEqual({ type: 'seekBy', seconds: -10 });
    expect(keyToAction({ key: 'l' })).toEqual({ type: 'seekBy', seconds: 10 });
    expect(keyToAction({ key: 'ArrowLeft' })).toEqual({ type: 'seekBy', seconds: -5 });
    expect(keyToAction({ key: 'ArrowRight' })).toEqual({ type: 'seekBy', seconds: 5 });
    expect(keyToAction({ key: 'ArrowUp' })).toEqual({ type: 'volumeBy', delta: 0.05 });
    expect(keyToAction({ key: 'ArrowDown' })).toEqual({ type: 'volumeBy', delta: -0.05 });
  });

  it('maps toggles', () => {
    expect(keyToAction({ key: 'f' })).toEqual({ type: 'toggleFullscreen' });
    expect(keyToAction({ key: 'm' })).toEqual({ type: 'toggleMute' });
    expect(keyToAction({ key: 't' })).toEqual({ type: 'toggleTheater' });
    expect(keyToAction({ key: 'i' })).toEqual({ type: 'togglePictureInPicture' });
  });

  it('maps digits to 0%..90% and Home/End to the ends', () => {
    for (let d = 0; d <= 9; d++) {
      expect(keyToAction({ key: String(d) })).toEqual({ type: 'seekToFraction', fraction: d / 10 });
    }
    expect(keyToAction({ key: 'Home' })).toEqual({ type: 'seekToFraction', fraction: 0 });
    expect(keyToAction({ key: 'End' })).toEqual({ type: 'seekToFraction', fraction: 1 });
  });

  it('maps , and . to frame steps and their shifted forms to speed steps', () => {
    expect(keyToAction({ key: ',' })).toEqual({ type: 'frameStep', direction: -1 });
    expect(keyToAction({ key: '.' })).toEqual({ type: 'frameStep', direction: 1 });
    expect(keyToAction({ key: '<', shiftKey: true })).toEqual({ type: 'speedStep', direction: -1 });
    expect(keyToAction({ key: '>', shiftKey: true })).toEqual({ type: 'speedStep', direction: 1 });
    expect(keyToAction({ key: ',', shiftKey: true })).toEqual({ type: 'speedStep', direction: -1 });
    expect(keyToAction({ key: '.', shiftKey: true })).toEqual({ type: 'speedStep', direction: 1 });
  });

  it('leaves browser combinations and other keys alone', () => {
    expect(keyToAction({ key: 'f', ctrlKey: true })).toBeNull();
    expect(keyToAction({ key: 'l', metaKey: true })).toBeNull();
    expect(keyToAction({ key: 'ArrowLeft', altKey: true })).toBeNull();
    expect(keyToAction({ key: 'x' })).toBeNull();
    expect(keyToAction({ key: 'Enter' })).toBeNull();
    expect(keyToAction({ key: 'Tab' })).toBeNull();
    expect(keyToAction({ key: 'F5' })).toBeNull();
  });
});

describe('shouldHandleKey', () => {
  function el(html: string, selector: string): Element {
    document.body.innerHTML = html;
    return document.querySelector(selector)!;
  }

  it('handles keys with nothing or the body focused', () => {
    expect(shouldHandleKey({ key: 'k' }, null)).toBe(true);
    expect(shouldHandleKey({ key: 'k' }, document.body)).toBe(true);
  });

  it('never handles keys typed into fields', () => {
    expect(shouldHandleKey({ key: 'k' }, el('<input id="a">', '#a'))).toBe(false);
    expect(shouldHandleKey({ key: ' ' }, el('<textarea id="a"></textarea>', '#a'))).toBe(false);
    expect(shouldHandleKey({ key: 'j' }, el('<select id="a"></select>', '#a'))).toBe(false);
    expect(shouldHandleKey({ key: 'm' }, el('<div contenteditable="true"><p id="a">x</p></div>', '#a'))).toBe(false);
  });

  it('lets a focused button have Space and Enter but not other shortcuts', () => {
    const button = el('<button id="a">Like</button>', '#a');
    expect(shouldHandleKey({ key: ' ' }, button)).toBe(false);
    expect(shouldHandleKey({ key: 'Enter' }, button)).toBe(false);
    expect(shouldHandleKey({ key: 'k' }, button)).toBe(true);
    expect(shouldHandleKey({ key: 'ArrowRight' }, button)).toBe(true);
  });

  it('lets a focused slider or menu keep its arrow keys', () => {
    const slider = el('<div role="slider" tabindex="0" id="a"></div>', '#a');
    expect(shouldHandleKey({ key: 'ArrowRight' }, slider)).toBe(false);
    expect(shouldHandleKey({ key: 'j' }, slider)).toBe(true);
    const item = el('<div role="menu"><div role="menuitemradio" id="a">720p</div></div>', '#a');
    expect(shouldHandleKey({ key: 'ArrowDown' }, item)).toBe(false);
    expect(shouldHandleKey({ key: 'f' }, item)).toBe(true);
  });

  it('does not handle an event already handled', () => {
    expect(shouldHandleKey({ key: 'k', defaultPrevented: true }, null)).toBe(false);
  });
});

const base: PlayerSnapshot = {
  currentTime: 50,
  duration: 100,
  paused: false,
  volume: 0.5,
  muted: false,
  playbackRate: 1,
  theater: false,
};

describe('planAction', () => {
  it('toggles play from the paused state', () => {
    expect(planAction({ type: 'togglePlay' }, base)).toEqual({ kind: 'pause' });
    expect(planAction({ type: 'togglePlay' }, { ...base, paused: true })).toEqual({ kind: 'play' });
  });

  it('seeks relative and clamps to the media', () => {
    expect(planAction({ type: 'seekBy', seconds: 10 }, base)).toEqual({ kind: 'seek', time: 60 });
    expect(planAction({ type: 'seekBy', seconds: -5 }, base)).toEqual({ kind: 'seek', time: 45 });
    expect(planAction({ type: 'seekBy', seconds: -10 }, { ...base, currentTime: 4 })).toEqual({ kind: 'seek', time: 0 });
    expect(planAction({ type: 'seekBy', seconds: 10 }, { ...base, currentTime: 95 })).toEqual({ kind: 'seek', time: 100 });
  });

  it('seeks to a share of the duration, and not at all while it is unknown', () => {
    expect(planAction({ type: 'seekToFraction', fraction: 0.3 }, base)).toEqual({ kind: 'seek', time: 30 });
    expect(planAction({ type: 'seekToFraction', fraction: 0 }, base)).toEqual({ kind: 'seek', time: 0 });
    expect(planAction({ type: 'seekToFraction', fraction: 0.5 }, { ...base, duration: Number.NaN })).toEqual({ kind: 'none' });
  });

  it('steps volume, unmuting on the way up and muting at zero', () => {
    expect(planAction({ type: 'volumeBy', delta: 0.05 }, base)).toEqual({ kind: 'volume', volume: 0.55, muted: false });
    expect(planAction({ type: 'volumeBy', delta: 0.05 }, { ...base, volume: 1 })).toEqual({ kind: 'volume', volume: 1, muted: false });
    expect(planAction({ type: 'volumeBy', delta: 0.05 }, { ...base, muted: true })).toEqual({ kind: 'volume', volume: 0.55, muted: false });
    expect(planAction({ type: 'volumeBy', delta: -0.05 }, { ...base, volume: 0.05 })).toEqual({ kind: 'volume', volume: 0, muted: true });
  });

  it('toggles mute, theater, fullscreen and picture-in-picture', () => {
    expect(planAction({ type: 'toggleMute' }, base)).toEqual({ kind: 'muted', muted: true });
    expect(planAction({ type: 'toggleMute' }, { ...base, muted: true })).toEqual({ kind: 'muted', muted: false });
    expect(planAction({ type: 'toggleTheater' }, base)).toEqual({ kind: 'theater', theater: true });
    expect(planAction({ type: 'toggleTheater' }, { ...base, theater: true })).toEqual({ kind: 'theater', theater: false });
    expect(planAction({ type: 'toggleFullscreen' }, base)).toEqual({ kind: 'fullscreen' });
    expect(planAction({ type: 'togglePictureInPicture' }, base)).toEqual({ kind: 'pictureInPicture' });
  });

  it('steps one frame only while paused', () => {
    expect(planAction({ type: 'frameStep', direction: 1 }, base)).toEqual({ kind: 'none' });
    const forward = planAction({ type: 'frameStep', direction: 1 }, { ...base, paused: true });
    expect(forward.kind).toBe('seek');
    expect(forward.kind === 'seek' && forward.time).toBeCloseTo(50 + 1 / 30, 9);
    const back = planAction({ type: 'frameStep', direction: -1 }, { ...base, paused: true });
    expect(back.kind === 'seek' && back.time).toBeCloseTo(50 - 1 / 30, 9);
  });

  it('steps speed through the list', () => {
    expect(planAction({ type: 'speedStep', direction: 1 }, base)).toEqual({ kind: 'rate', rate: 1.25 });
    expect(planAction({ type: 'speedStep', direction: -1 }, { ...base, playbackRate: 0.25 })).toEqual({ kind: 'rate', rate: 0.25 });
  });
});

describe('describeCommand', () => {
  it('labels seeks, volume, mute and speed', () => {
    const seek = { type: 'seekBy', seconds: -10 } as const;
    expect(describeCommand(planAction(seek, base), seek)).toBe('−10 s');
    const fwd = { type: 'seekBy', seconds: 5 } as const;
    expect(describeCommand(planAction(fwd, base), fwd)).toBe('+5 s');
    const up = { type: 'volumeBy', delta: 0.05 } as const;
    expect(describeCommand(planAction(up, base), up)).toBe('55%');
    const mute = { type: 'toggleMute' } as const;
    expect(describeCommand(planAction(mute, base), mute)).toBe('Muted');
    const faster = { type: 'speedStep', direction: 1 } as const;
    expect(describeCommand(planAction(faster, base), faster)).toBe('1.25x');
    const play = { type: 'togglePlay' } as const;
    expect(describeCommand(planAction(play, base), play)).toBeNull();
  });
});
