import { describe, expect, it } from 'vitest';
import { parseStoryboard, tileAt } from './storyboard-tiles';

const VTT = [
  'WEBVTT',
  '',
  '00:00:00.000 --> 00:00:05.000',
  'sprite-0.jpg#xywh=0,0,160,90',
  '',
  '00:00:05.000 --> 00:00:10.000',
  'sprite-0.jpg#xywh=160,0,160,90',
  '',
  '00:00:10.000 --> 00:00:12.500',
  'sprite-1.jpg#xywh=0,90,160,90',
  '',
  'not a cue --> at all',
  'sprite-1.jpg',
].join('\r\n');

describe('parseStoryboard', () => {
  it('reads every tile with its sprite resolved against the index', () => {
    const tiles = parseStoryboard(VTT, 'http://site.test/media/videos/v1/storyboard/storyboard.vtt');
    expect(tiles).toEqual([
      { start: 0, end: 5, url: 'http://site.test/media/videos/v1/storyboard/sprite-0.jpg', x: 0, y: 0, width: 160, height: 90 },
      { start: 5, end: 10, url: 'http://site.test/media/videos/v1/storyboard/sprite-0.jpg', x: 160, y: 0, width: 160, height: 90 },
      { start: 10, end: 12.5, url: 'http://site.test/media/videos/v1/storyboard/sprite-1.jpg', x: 0, y: 90, width: 160, height: 90 },
    ]);
  });

  it('picks the tile showing a time', () => {
    const tiles = parseStoryboard(VTT, 'http://site.test/s.vtt');
    expect(tileAt(tiles, 0)?.x).toBe(0);
    expect(tileAt(tiles, 7)?.x).toBe(160);
    expect(tileAt(tiles, 99)?.y).toBe(90);
    expect(tileAt([], 3)).toBeNull();
  });
});
