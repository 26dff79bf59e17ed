import type { MediaStorage } from '@vidstack/react';

export const VOLUME_STORAGE_KEY = 'reelhouse:player';

interface Saved {
  volume?: number;
  muted?: boolean;
  /** The caption language last chosen, and whether captions were on. */
  lang?: string | null;
  captions?: boolean;
}

/**
 * Remembers volume, mute and the captions (language, or off) across videos and visits, like
 * YouTube, and nothing else: speed, quality and position start fresh on each video. `store` is localStorage, or null where it is
 * unavailable (private modes that throw), in which case nothing is remembered. `captionsByDefault`
 * tells whether the viewer wants captions on whenever a video has them.
 */
export function createVolumeStorage(store: Storage | null, key = VOLUME_STORAGE_KEY, captionsByDefault: () => boolean = () => false): MediaStorage {
  const read = (): Saved => {
    try {
      const raw = store?.getItem(key);
      const parsed: unknown = raw ? JSON.parse(raw) : null;
      return parsed && typeof parsed === 'object' ? (parsed as Saved) : {};
    } catch {
      return {};
    }
  };
  const write = (patch: Saved) => {
    try {
      store?.setItem(key, JSON.stringify({ ...read(), ...patch }));
    } catch {
      // Full or forbidden storage: the setting just is not remembered.
    }
  };
  const none = async () => null;
  // Choosing another language turns the new track on and then the old one off; vidstack reports
  // both, so an "off" right after an "on" is the switch, not the viewer turning captions off.
  let justTurnedOn = false;
  return {
    async getVolume() {
      const { volume } = read();
      return typeof volume === 'number' && volume >= 0 && volume <= 1 ? volume : null;
    },
    async setVolume(volume) {
      write({ volume });
    },
    async getMuted() {
      const { muted } = read();
      return typeof muted === 'boolean' ? muted : null;
    },
    async setMuted(muted) {
      write({ muted });
    },
    async getLang() {
      const { lang } = read();
      return typeof lang === 'string' ? lang : null;
    },
    async setLang(lang) {
      write({ lang });
    },
    async getCaptions() {
      // The viewer asked for captions on every video: turning them off holds for this video only.
      if (captionsByDefault()) return true;
      const { captions } = read();
      return typeof captions === 'boolean' ? captions : null;
    },
    async setCaptions(captions) {
      if (captions) {
        justTurnedOn = true;
        queueMicrotask(() => {
          justTurnedOn = false;
        });
      } else if (justTurnedOn) {
        return;
      }
      write({ captions });
    },
    getTime: none,
    getPlaybackRate: none,
    getVideoQuality: none,
    getAudioGain: none,
  };
}

/** localStorage, or null where touching it throws. */
export function browserStorage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}
