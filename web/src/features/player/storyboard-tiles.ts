/** One seek-preview tile of the storyboard: the time it covers and its place on a sprite sheet. */
export interface StoryboardTile {
  start: number;
  end: number;
  url: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const CUE_TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)$/;
const TILE = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)$/;

function vttSeconds(text: string): number | null {
  const m = CUE_TIME.exec(text.trim());
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * The tiles of a storyboard WebVTT index (`00:00:05.000 --> 00:00:10.000` then
 * `sprite-0.jpg#xywh=160,0,160,90`), sprite URLs resolved against the index's own URL.
 * Cues it cannot read are skipped.
 */
export function parseStoryboard(vtt: string, indexUrl: string): StoryboardTile[] {
  const tiles: StoryboardTile[] = [];
  const lines = vtt.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length - 1; i++) {
    const [from, to] = lines[i]!.split('-->');
    if (to === undefined) continue;
    const start = vttSeconds(from!);
    const end = vttSeconds(to);
    const tile = TILE.exec(lines[i + 1]!.trim());
    if (start === null || end === null || !tile) continue;
    let url: string;
    try {
      url = new URL(tile[1]!, indexUrl).href;
    } catch {
      continue;
    }
    tiles.push({ start, end, url, x: Number(tile[2]), y: Number(tile[3]), width: Number(tile[4]), height: Number(tile[5]) });
  }
  return tiles;
}

/** The tile showing `seconds`, or the last one before it; null without tiles. */
export function tileAt(tiles: readonly StoryboardTile[], seconds: number): StoryboardTile | null {
  let found: StoryboardTile | null = null;
  for (const tile of tiles) {
    if (tile.start <= seconds) found = tile;
    else break;
  }
  return found;
}
