import { describe, expect, it } from 'vitest';
import { validateNewPlaylist } from './playlists.api';

describe('validateNewPlaylist', () => {
  it('requires a name and a description', () => {
    expect(validateNewPlaylist({ name: '', description: ' ' })).toEqual({
      name: 'Name is required',
      description: 'Description is required',
    });
    expect(validateNewPlaylist({ name: 'Mix', description: 'Songs' })).toEqual({});
  });
});
