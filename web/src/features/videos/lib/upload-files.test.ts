import { describe, expect, it } from 'vitest';
import { formatResolution, isMp4, isThumbnailImage, titleFromFileName } from './upload-files';

const f = (name: string, type = '') => ({ name, type });

describe('titleFromFileName', () => {
  it('drops the extension and folder, turns underscores into spaces', () => {
    expect(titleFromFileName('my_holiday__clip.mp4')).toBe('my holiday clip');
    expect(titleFromFileName('C:\\fakepath\\Trip to Rome.MP4')).toBe('Trip to Rome');
    expect(titleFromFileName('clip.final.mp4')).toBe('clip.final');
  });
  it('reads a slug’s hyphens as spaces but keeps them in a name that has spaces', () => {
    expect(titleFromFileName('sunset-over-the-bay.mp4')).toBe('sunset over the bay');
    expect(titleFromFileName('2024-05-01 trip.mp4')).toBe('2024-05-01 trip');
  });
  it('keeps a name without extension and collapses whitespace', () => {
    expect(titleFromFileName('  spaced   out  ')).toBe('spaced out');
    expect(titleFromFileName('.mp4')).toBe('');
  });
  it('cuts to the limit at a word boundary, or hard when there is none', () => {
    const long = `${'word '.repeat(30)}.mp4`;
    const t = titleFromFileName(long, 100);
    expect(t.length).toBeLessThanOrEqual(100);
    expect(t.endsWith('word')).toBe(true);
    expect(titleFromFileName(`${'x'.repeat(150)}.mp4`, 100)).toBe('x'.repeat(100));
  });
});

describe('file checks', () => {
  it('takes an mp4 by MIME type, or by name when the browser gives no type', () => {
    expect(isMp4(f('a.mp4', 'video/mp4'))).toBe(true);
    expect(isMp4(f('A.MP4'))).toBe(true);
    expect(isMp4(f('a.webm', 'video/webm'))).toBe(false);
    expect(isMp4(f('a.mp4', 'video/quicktime'))).toBe(false);
    expect(isMp4(f('notes.txt', 'text/plain'))).toBe(false);
  });
  it('takes png, jpeg, jpg and webp thumbnails only', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/jpg', 'image/webp']) expect(isThumbnailImage(f('x', t))).toBe(true);
    expect(isThumbnailImage(f('x.JPG'))).toBe(true);
    expect(isThumbnailImage(f('x.gif', 'image/gif'))).toBe(false);
    expect(isThumbnailImage(f('x.svg'))).toBe(false);
  });
});

describe('formatResolution', () => {
  it('names a resolution by its short side', () => {
    expect(formatResolution(1920, 1080)).toBe('1920×1080 · 1080p');
    expect(formatResolution(1080, 1920)).toBe('1080×1920 · 1080p');
    expect(formatResolution(3840, 2160)).toBe('3840×2160 · 4K');
    expect(formatResolution(0, 0)).toBe('');
  });
});
