import type { StoryboardPlan } from './video-plan.js';

export const spriteName = (sheet: number) => `sprite-${sheet}.jpg`;

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(h)}:${p(m)}:${p(s)}.${p(rest, 3)}`;
}

/**
 * WebVTT index of the sprite sheets: each cue covers one tile's time span and points at the tile
 * with a media fragment (`sprite-0.jpg#xywh=x,y,w,h`), relative to the .vtt file.
 */
export function buildStoryboardVtt(plan: StoryboardPlan, duration: number, tiles = plan.tiles): string {
  const perSheet = plan.columns * plan.rows;
  const out = ['WEBVTT', ''];
  for (let i = 0; i < tiles; i++) {
    const start = i * plan.interval;
    const end = Math.min((i + 1) * plan.interval, Math.max(duration, start + 0.001));
    const sheet = Math.floor(i / perSheet);
    const pos = i % perSheet;
    const x = (pos % plan.columns) * plan.tileWidth;
    const y = Math.floor(pos / plan.columns) * plan.tileHeight;
    out.push(`${vttTime(start)} --> ${vttTime(end)}`, `${spriteName(sheet)}#xywh=${x},${y},${plan.tileWidth},${plan.tileHeight}`, '');
  }
  return out.join('\n');
}
