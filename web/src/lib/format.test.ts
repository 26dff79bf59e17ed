import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/i18n/i18n';
import { compactNumber, formatBytes, formatDuration, formatViews, timeAgo } from './format';

describe('formatDuration', () => {
  it('shows mm:ss under an hour', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(5)).toBe('00:05');
    expect(formatDuration(65)).toBe('01:05');
    expect(formatDuration(599.9)).toBe('09:59');
    expect(formatDuration(3599)).toBe('59:59');
  });
  it('shows h:mm:ss from an hour', () => {
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(36000 + 59)).toBe('10:00:59');
  });
  it('treats bad input as zero', () => {
    expect(formatDuration(Number.NaN)).toBe('00:00');
    expect(formatDuration(-4)).toBe('00:00');
  });
});

describe('timeAgo', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
  it('uses the largest whole unit', () => {
    expect(timeAgo(ago(3), now)).toBe('just now');
    expect(timeAgo(ago(45), now)).toBe('45 seconds ago');
    expect(timeAgo(ago(60), now)).toBe('1 minute ago');
    expect(timeAgo(ago(2 * 3600 + 5), now)).toBe('2 hours ago');
    expect(timeAgo(ago(3 * 86400), now)).toBe('3 days ago');
    expect(timeAgo(ago(8 * 86400), now)).toBe('1 week ago');
    expect(timeAgo(ago(65 * 86400), now)).toBe('2 months ago');
    expect(timeAgo(ago(800 * 86400), now)).toBe('2 years ago');
  });
  it('copes with clocks slightly ahead', () => {
    expect(timeAgo(new Date(now.getTime() + 5000), now)).toBe('just now');
  });
});

describe('compactNumber and formatBytes', () => {
  it('abbreviates', () => {
    expect(compactNumber(999)).toBe('999');
    expect(compactNumber(1250)).toBe('1.2K');
    expect(compactNumber(2_500_000)).toBe('2.5M');
    expect(formatBytes(512)).toBe('512 byte');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.2 MB');
  });
});

describe('in the chosen language', () => {
  afterEach(async () => {
    await changeLanguage('en');
  });

  it('writes counts, plurals and ages as each language does, truncating rather than rounding', async () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const threeDaysAgo = new Date(now.getTime() - 3 * 86400_000);
    await changeLanguage('fr');
    expect(compactNumber(1299)).toBe(new Intl.NumberFormat('fr', { notation: 'compact', maximumFractionDigits: 1 }).format(1200));
    expect(compactNumber(1299)).toMatch(/^1,2\sk$/);
    expect(formatViews(1)).toBe('1 vue');
    expect(formatViews(2)).toBe('2 vues');
    expect(timeAgo(threeDaysAgo, now)).toBe('il y a 3 jours');
    expect(formatBytes(1_234_567)).toMatch(/^1,2\sMo$/);
    await changeLanguage('de');
    expect(formatBytes(5_000_000_000)).toMatch(/^5\sGB$/);
    expect(formatBytes(1_500)).toMatch(/^1,5\skB$/);
    await changeLanguage('ja');
    expect(compactNumber(12_345)).toBe('1.2万');
    expect(timeAgo(threeDaysAgo, now)).toBe('3 日前');
    await changeLanguage('ar');
    expect(formatViews(1)).toBe('مشاهدة واحدة');
    expect(formatViews(2)).toBe('مشاهدتان');
    expect(document.documentElement.dir).toBe('rtl');
  });
});
