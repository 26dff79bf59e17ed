import type { MediaPlayerInstance } from '@vidstack/react';
import { useEffect, useState, type RefObject } from 'react';
import { describeCommand, keyToAction, planAction, shouldHandleKey, type PlayerCommand } from './keyboard';
import { videoElement } from './video-element';
import { readViewingPreferences } from './viewing-preferences';

const FLASH_MS = 650;

/** What the shortcuts read of the page at the moment a key is pressed. */
export interface PlayerKeysView {
  theater: boolean;
  /** The video's duration as the page knows it, until the media has its own. */
  duration: number;
  onTheaterChange(theater: boolean): void;
}

/**
 * YouTube's shortcuts, with the player or the page focused and never while typing. vidstack's own
 * key handling is off (keyDisabled) because its mapping differs (j/l and arrows share one step, no
 * frame step or theater, digits and speed keys work differently). The viewer can turn them off
 * (viewing preferences). Returns the flash that says what
 * a key did, shown briefly over the video.
 */
export function usePlayerKeys(playerRef: RefObject<MediaPlayerInstance | null>, view: RefObject<PlayerKeysView>): { text: string; key: number } | null {
  const [flash, setFlash] = useState<{ text: string; key: number } | null>(null);

  useEffect(() => {
    let flashKey = 0;
    const onKeyDown = (event: KeyboardEvent) => {
      const player = playerRef.current;
      if (!player || !shouldHandleKey(event, document.activeElement)) return;
      // Turned off by the viewer: keys then only operate what has focus (buttons, the seek bar).
      if (!readViewingPreferences().keyboardShortcuts) return;
      const action = keyToAction(event);
      if (!action) return;
      event.preventDefault();
      // Read the element itself where there is one: vidstack's state catches up only on the
      // element's events, so quick repeated presses (> > >, l l l) would plan from stale values.
      const { state } = player;
      const media = videoElement(player);
      const command = planAction(action, {
        currentTime: media?.currentTime ?? state.currentTime,
        duration: state.duration > 0 ? state.duration : view.current.duration,
        paused: media?.paused ?? state.paused,
        volume: media?.volume ?? state.volume,
        muted: media?.muted ?? state.muted,
        playbackRate: media?.playbackRate ?? state.playbackRate,
        theater: view.current.theater,
      });
      applyCommand(player, command, view.current);
      const text = describeCommand(command, action);
      if (text) setFlash({ text, key: ++flashKey });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [playerRef, view]);

  useEffect(() => {
    if (!flash) return;
    const timer = window.setTimeout(() => setFlash(null), FLASH_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);

  return flash;
}

function applyCommand(player: MediaPlayerInstance, command: PlayerCommand, view: PlayerKeysView): void {
  switch (command.kind) {
    case 'play':
      void player.play().catch(() => {});
      break;
    case 'pause':
      void player.pause().catch(() => {});
      break;
    case 'seek':
      player.currentTime = command.time;
      break;
    case 'volume':
      player.volume = command.volume;
      player.muted = command.muted;
      break;
    case 'muted':
      player.muted = command.muted;
      break;
    case 'rate':
      player.playbackRate = command.rate;
      break;
    case 'fullscreen':
      void (player.state.fullscreen ? player.exitFullscreen() : player.enterFullscreen()).catch(() => {});
      break;
    case 'pictureInPicture':
      void (player.state.pictureInPicture ? player.exitPictureInPicture() : player.enterPictureInPicture()).catch(() => {});
      break;
    case 'theater':
      view.onTheaterChange(command.theater);
      break;
    case 'none':
      break;
  }
}
