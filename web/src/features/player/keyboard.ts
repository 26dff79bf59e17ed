import { i18n } from '@/i18n/i18n';
import { formatNumber } from '@/lib/format';
import { clampTime, clampVolume, frameStep, stepSpeed } from './playback';

/** What a shortcut asks for, independent of the player's state. */
export type PlayerAction =
  | { type: 'togglePlay' }
  | { type: 'seekBy'; seconds: number }
  | { type: 'seekToFraction'; fraction: number }
  | { type: 'volumeBy'; delta: number }
  | { type: 'toggleMute' }
  | { type: 'toggleFullscreen' }
  | { type: 'togglePictureInPicture' }
  | { type: 'toggleTheater' }
  | { type: 'frameStep'; direction: 1 | -1 }
  | { type: 'speedStep'; direction: 1 | -1 };

export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

export const VOLUME_STEP = 0.05;

/**
 * YouTube's player shortcuts: key event -> action, or null when the key is not a shortcut.
 * Combinations with Ctrl, Meta or Alt are left to the browser (Ctrl+F, Alt+Left...).
 */
export function keyToAction(event: KeyLike): PlayerAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  switch (key) {
    case ' ':
    case 'Spacebar':
    case 'k':
      return { type: 'togglePlay' };
    case 'j':
      return { type: 'seekBy', seconds: -10 };
    case 'l':
      return { type: 'seekBy', seconds: 10 };
    case 'ArrowLeft':
      return { type: 'seekBy', seconds: -5 };
    case 'ArrowRight':
      return { type: 'seekBy', seconds: 5 };
    case 'ArrowUp':
      return { type: 'volumeBy', delta: VOLUME_STEP };
    case 'ArrowDown':
      return { type: 'volumeBy', delta: -VOLUME_STEP };
    case 'f':
      return { type: 'toggleFullscreen' };
    case 'm':
      return { type: 'toggleMute' };
    case 't':
      return { type: 'toggleTheater' };
    case 'i':
      return { type: 'togglePictureInPicture' };
    case 'Home':
      return { type: 'seekToFraction', fraction: 0 };
    case 'End':
      return { type: 'seekToFraction', fraction: 1 };
    // Shift+, and Shift+. read as < and > on most layouts; some report the unshifted key.
    case '<':
      return { type: 'speedStep', direction: -1 };
    case '>':
      return { type: 'speedStep', direction: 1 };
    case ',':
      return event.shiftKey ? { type: 'speedStep', direction: -1 } : { type: 'frameStep', direction: -1 };
    case '.':
      return event.shiftKey ? { type: 'speedStep', direction: 1 } : { type: 'frameStep', direction: 1 };
    default:
      if (/^[0-9]$/.test(key)) return { type: 'seekToFraction', fraction: Number(key) / 10 };
      return null;
  }
}

const TEXT_ENTRY = 'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [role="textbox"], [role="combobox"]';
/** Widgets that use these keys themselves while focused (vidstack's sliders and menus do). */
const OWN_KEYS: Array<[selector: string, keys: string[]]> = [
  ['button, [role="button"], a[href], summary, [role="checkbox"], [role="switch"]', [' ', 'Enter', 'Spacebar']],
  ['[role="slider"]', ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']],
  [
    '[role="menu"], [role="menu"] *, [role="menuitem"], [role="menuitemradio"], [role="radio"], [role="radiogroup"], [role="listbox"], [role="option"]',
    [' ', 'Enter', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'],
  ],
];

/**
 * Whether a page-level keydown should drive the player: never while typing in a field, and not
 * for keys that the focused control (button, slider, menu) uses for itself.
 */
export function shouldHandleKey(event: KeyLike & { defaultPrevented?: boolean }, focused: Element | null): boolean {
  if (event.defaultPrevented) return false;
  if (!focused || typeof focused.closest !== 'function') return true;
  if (focused.closest(TEXT_ENTRY)) return false;
  return !OWN_KEYS.some(([selector, keys]) => keys.includes(event.key) && focused.closest(selector) !== null);
}

/** The player state an action is planned against. */
export interface PlayerSnapshot {
  currentTime: number;
  duration: number;
  paused: boolean;
  volume: number;
  muted: boolean;
  playbackRate: number;
  theater: boolean;
}

/** What to do to the player; `none` when the action does not apply (frame step while playing). */
export type PlayerCommand =
  | { kind: 'play' }
  | { kind: 'pause' }
  | { kind: 'seek'; time: number }
  | { kind: 'volume'; volume: number; muted: boolean }
  | { kind: 'muted'; muted: boolean }
  | { kind: 'rate'; rate: number }
  | { kind: 'fullscreen' }
  | { kind: 'pictureInPicture' }
  | { kind: 'theater'; theater: boolean }
  | { kind: 'none' };

export function planAction(action: PlayerAction, s: PlayerSnapshot): PlayerCommand {
  switch (action.type) {
    case 'togglePlay':
      return { kind: s.paused ? 'play' : 'pause' };
    case 'seekBy':
      return { kind: 'seek', time: clampTime(s.currentTime + action.seconds, s.duration) };
    case 'seekToFraction':
      return Number.isFinite(s.duration) && s.duration > 0 ? { kind: 'seek', time: clampTime(s.duration * action.fraction, s.duration) } : { kind: 'none' };
    case 'volumeBy': {
      // Like YouTube: stepping from muted starts from the remembered volume and unmutes.
      const volume = clampVolume(s.volume + action.delta);
      return { kind: 'volume', volume, muted: volume === 0 };
    }
    case 'toggleMute':
      return { kind: 'muted', muted: !s.muted };
    case 'toggleFullscreen':
      return { kind: 'fullscreen' };
    case 'togglePictureInPicture':
      return { kind: 'pictureInPicture' };
    case 'toggleTheater':
      return { kind: 'theater', theater: !s.theater };
    case 'frameStep':
      return s.paused ? { kind: 'seek', time: frameStep(s.currentTime, action.direction, s.duration) } : { kind: 'none' };
    case 'speedStep':
      return { kind: 'rate', rate: stepSpeed(s.playbackRate, action.direction) };
  }
}

/** The short text flashed over the video after a shortcut (YouTube's bezel). */
export function describeCommand(command: PlayerCommand, action: PlayerAction): string | null {
  switch (command.kind) {
    case 'seek':
      if (action.type === 'seekBy') {
        const seconds = formatNumber(Math.abs(action.seconds));
        return action.seconds > 0 ? i18n.t('player:flash.forward', { seconds }) : i18n.t('player:flash.back', { seconds });
      }
      return null;
    case 'volume':
      return command.muted ? i18n.t('player:flash.muted') : i18n.t('player:flash.volume', { percent: formatNumber(Math.round(command.volume * 100)) });
    case 'muted':
      return command.muted ? i18n.t('player:flash.muted') : i18n.t('player:flash.soundOn');
    case 'rate':
      return i18n.t('player:flash.speed', { rate: formatNumber(command.rate) });
    default:
      return null;
  }
}
