import { beforeEach, describe, expect, it } from 'vitest';
import { createVolumeStorage, VOLUME_STORAGE_KEY } from './volume-storage';

describe('createVolumeStorage', () => {
  beforeEach(() => localStorage.clear());

  it('remembers volume and mute', async () => {
    const storage = createVolumeStorage(localStorage);
    expect(await storage.getVolume()).toBeNull();
    expect(await storage.getMuted()).toBeNull();
    await storage.setVolume?.(0.35);
    await storage.setMuted?.(true);
    const later = createVolumeStorage(localStorage);
    expect(await later.getVolume()).toBe(0.35);
    expect(await later.getMuted()).toBe(true);
    expect(JSON.parse(localStorage.getItem(VOLUME_STORAGE_KEY)!)).toEqual({ volume: 0.35, muted: true });
  });

  it('remembers the caption language, or captions off, across videos', async () => {
    const storage = createVolumeStorage(localStorage);
    expect(await storage.getLang()).toBeNull();
    expect(await storage.getCaptions()).toBeNull();
    await storage.setLang?.('pt-BR');
    await storage.setCaptions?.(true);
    expect(await createVolumeStorage(localStorage).getLang()).toBe('pt-BR');
    expect(await createVolumeStorage(localStorage).getCaptions()).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    await storage.setCaptions?.(false);
    expect(await createVolumeStorage(localStorage).getCaptions()).toBe(false);
  });

  it('keeps captions on when the viewer switches language (new track on, then old one off)', async () => {
    const storage = createVolumeStorage(localStorage);
    void storage.setLang?.('fr');
    void storage.setCaptions?.(true);
    void storage.setCaptions?.(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(await storage.getLang()).toBe('fr');
    expect(await storage.getCaptions()).toBe(true);
  });

  it('remembers nothing else', async () => {
    const storage = createVolumeStorage(localStorage);
    await storage.setPlaybackRate?.(2);
    await storage.setTime?.(42);
    expect(await storage.getPlaybackRate()).toBeNull();
    expect(await storage.getTime()).toBeNull();
    expect(await storage.getVideoQuality()).toBeNull();
  });

  it('ignores damaged or out-of-range values', async () => {
    localStorage.setItem(VOLUME_STORAGE_KEY, '{not json');
    expect(await createVolumeStorage(localStorage).getVolume()).toBeNull();
    localStorage.setItem(VOLUME_STORAGE_KEY, JSON.stringify({ volume: 7, muted: 'yes' }));
    expect(await createVolumeStorage(localStorage).getVolume()).toBeNull();
    expect(await createVolumeStorage(localStorage).getMuted()).toBeNull();
  });

  it('works without storage, and survives a storage that throws', async () => {
    const none = createVolumeStorage(null);
    await none.setVolume?.(0.5);
    expect(await none.getVolume()).toBeNull();
    const throwing = {
      getItem() {
        throw new Error('denied');
      },
      setItem() {
        throw new Error('denied');
      },
    } as unknown as Storage;
    const storage = createVolumeStorage(throwing);
    await expect(storage.setVolume?.(0.5)).resolves.toBeUndefined();
    expect(await storage.getVolume()).toBeNull();
  });
});

describe('createVolumeStorage with captions on by preference', () => {
  beforeEach(() => localStorage.clear());

  it('turns captions on for every video even after the viewer turned them off on one', async () => {
    let wanted = true;
    const storage = createVolumeStorage(localStorage, VOLUME_STORAGE_KEY, () => wanted);
    await storage.setCaptions?.(false);
    expect(await storage.getCaptions()).toBe(true);
    wanted = false;
    expect(await storage.getCaptions()).toBe(false);
  });
});
