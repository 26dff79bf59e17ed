import { describe, expect, it } from 'vitest';
import { mergePages, videoPollInterval } from '../api/videos.api';
import { EMPTY_UPLOAD, validateUpload } from './upload-form';

const file = (name: string, type: string) => new File([new Uint8Array([0])], name, { type });

describe('validateUpload', () => {
  const ok = { ...EMPTY_UPLOAD, title: 'A', description: 'B', videoFile: file('v.mp4', 'video/mp4'), thumbnail: file('t.webp', 'image/webp') };
  it('accepts an mp4 and a png/jpeg/webp thumbnail with a title and description', () => {
    expect(validateUpload(ok)).toEqual({});
  });
  it('requires all four fields', () => {
    expect(Object.keys(validateUpload({ ...EMPTY_UPLOAD, title: ' ' })).sort()).toEqual(['description', 'thumbnail', 'title', 'videoFile']);
  });
  it('rejects other video and image types', () => {
    expect(validateUpload({ ...ok, videoFile: file('v.webm', 'video/webm') }).videoFile).toBe('Video must be an mp4 file');
    expect(validateUpload({ ...ok, thumbnail: file('t.gif', 'image/gif') }).thumbnail).toBeDefined();
  });
  it('needs no image when the thumbnail is a frame of the video', () => {
    expect(validateUpload({ ...ok, thumbnail: null, thumbnailSource: 'frame', frameTime: 1.5 })).toEqual({});
    expect(validateUpload({ ...ok, thumbnail: null, thumbnailSource: 'image' }).thumbnail).toBe('Thumbnail is required');
  });
  it('refuses a schedule in the past for a private video, and ignores one left on another visibility', () => {
    const now = new Date('2026-11-23T12:00:00Z').getTime();
    const past = { ...ok, visibility: 'private' as const, schedule: '2020-01-01T10:00' };
    expect(validateUpload(past, now).schedule).toBe('Schedule must be in the future');
    expect(validateUpload({ ...past, schedule: '2099-01-01T10:00' }, now)).toEqual({});
    expect(validateUpload({ ...past, visibility: 'unlisted' }, now)).toEqual({});
  });
});

describe('mergePages', () => {
  const v = (id: string) => ({ _id: id }) as never;
  const page = (ids: string[]) => ({ videos: ids.map(v) }) as never;
  it('appends later pages in order and drops duplicates that shifted between pages', () => {
    expect(mergePages([page(['a', 'b']), page(['b', 'c'])]).map((x) => x._id)).toEqual(['a', 'b', 'c']);
    expect(mergePages(undefined)).toEqual([]);
  });
});

describe('videoPollInterval', () => {
  it('polls every second while processing and stops once ready or failed', () => {
    expect(videoPollInterval('processing')).toBe(1000);
    expect(videoPollInterval('ready')).toBe(false);
    expect(videoPollInterval('failed')).toBe(false);
    expect(videoPollInterval(undefined)).toBe(false);
    const live = (status: 'upcoming' | 'live' | 'ended') => ({ status, scheduledStart: null, startedAt: null, endedAt: null, viewers: 0 });
    expect(videoPollInterval('ready', live('upcoming'))).toBe(5000);
    expect(videoPollInterval('ready', live('live'), true)).toBe(false);
    expect(videoPollInterval('ready', live('ended'), false)).toBe(5000);
    expect(videoPollInterval('ready', live('ended'), true)).toBe(false);
  });
});
