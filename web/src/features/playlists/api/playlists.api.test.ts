import type { Playlist } from '@reelhouse/contract';
import { describe, expect, it } from 'vitest';
import { playAllPath, playlistPosition, publicPlaylists, validateNewPlaylist, watchInListPath } from './playlists.api';

const playlist = (over: Partial<Playlist>): Playlist => ({
  _id: 'p1',
  name: 'Mix',
  description: 'd',
  owner: 'u1',
  visibility: 'private',
  videosCount: 0,
  videos: [],
  thumbnail: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('validateNewPlaylist', () => {
  it('requires a name and a description', () => {
    expect(validateNewPlaylist({ name: '', description: ' ' })).toEqual({
      name: 'Name is required',
      description: 'Description is required',
    });
    expect(validateNewPlaylist({ name: 'Mix', description: 'Songs' })).toEqual({});
  });
});

describe('playing a playlist', () => {
  it('starts from the first video, keeping the playlist in the address; an empty playlist has nowhere to start', () => {
    expect(playAllPath(playlist({ videos: ['v1', 'v2'] }))).toBe('/video/v1?list=p1');
    expect(playAllPath(playlist({ videos: [] }))).toBeNull();
    expect(watchInListPath('v2', 'p_1-x')).toBe('/video/v2?list=p_1-x');
  });

  it('a channel shows only its public playlists, even to its owner, who gets all of them from the server', () => {
    const lists = [playlist({ _id: 'a', visibility: 'public' }), playlist({ _id: 'b', visibility: 'unlisted' }), playlist({ _id: 'c' })];
    expect(publicPlaylists(lists).map((p) => p._id)).toEqual(['a']);
  });
});

describe('playlistPosition', () => {
  const detail = { _id: 'p1', videos: [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }] } as Parameters<typeof playlistPosition>[0];

  it('counts from the current video and names the next one, keeping the playlist', () => {
    expect(playlistPosition(detail, 'a')).toEqual({ index: 0, total: 3, next: '/video/b?list=p1' });
    expect(playlistPosition(detail, 'b')).toEqual({ index: 1, total: 3, next: '/video/c?list=p1' });
  });

  it('stops after the last video, and has no next for a video that is not in the playlist', () => {
    expect(playlistPosition(detail, 'c')).toEqual({ index: 2, total: 3, next: null });
    expect(playlistPosition(detail, 'zzz')).toEqual({ index: -1, total: 3, next: null });
  });
});
