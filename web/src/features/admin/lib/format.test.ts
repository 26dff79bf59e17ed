import { describe, expect, it } from 'vitest';
import { formatBytes } from '@/lib/format';
import { formatQuota, parseQuota, quotaText, formatDuration } from './format';

describe('formatBytes', () => {
  it('uses decimal units with one decimal below 100', () => {
    expect(formatBytes(0)).toBe('0 byte');
    expect(formatBytes(999)).toBe('999 byte');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(5_000_000_000)).toBe('5 GB');
    expect(formatBytes(123_400_000)).toBe('123 MB');
    expect(formatBytes(-1)).toBe('—');
  });
  it('names the default and no limit', () => {
    expect(formatQuota(null)).toBe('Site default');
    expect(formatQuota(-1)).toBe('Unlimited');
    expect(formatQuota(2_000_000)).toBe('2 MB');
  });
});

describe('parseQuota', () => {
  it('reads sizes, unlimited and the default', () => {
    expect(parseQuota('')).toEqual({ ok: true, bytes: null });
    expect(parseQuota(' Unlimited ')).toEqual({ ok: true, bytes: -1 });
    expect(parseQuota('500 MB')).toEqual({ ok: true, bytes: 500_000_000 });
    expect(parseQuota('2.5GB')).toEqual({ ok: true, bytes: 2_500_000_000 });
    expect(parseQuota('1234')).toEqual({ ok: true, bytes: 1234 });
  });
  it('refuses anything else with a message', () => {
    expect(parseQuota('lots')).toMatchObject({ ok: false, error: expect.stringContaining('500 MB') });
    expect(parseQuota('-5 MB').ok).toBe(false);
    expect(parseQuota('99999999999 TB')).toEqual({ ok: false, error: 'That size is too large' });
  });
  it('starts a field with text it reads back to the same value', () => {
    for (const bytes of [null, -1, 500_000_000, 2_500_000_000, 1234, 1_000]) {
      expect(parseQuota(quotaText(bytes))).toEqual({ ok: true, bytes });
    }
  });
});

describe('formatDuration', () => {
  it.each([
    [850, '850 ms'],
    [42_000, '42 s'],
    [185_000, '3 min 5 s'],
    [180_000, '3 min'],
    [3_720_000, '1 h 2 min'],
    [7_200_000, '2 h'],
    [-1, '—'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
