/**
 * The caption language the viewer last chose in the player. The player keeps its settings (volume,
 * mute, captions) as JSON under this localStorage key; the transcript only reads it.
 */
const PLAYER_SETTINGS_KEY = 'reelhouse:player';

export function savedCaptionLanguage(): string | null {
  try {
    const saved: unknown = JSON.parse(window.localStorage.getItem(PLAYER_SETTINGS_KEY) ?? 'null');
    const lang = saved && typeof saved === 'object' ? (saved as { lang?: unknown }).lang : null;
    return typeof lang === 'string' ? lang : null;
  } catch {
    return null;
  }
}
