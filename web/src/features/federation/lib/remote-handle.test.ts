import { describe, expect, it } from 'vitest';
import { displayHandle, looksLikeRemoteHandle } from './remote-handle';

describe('looksLikeRemoteHandle', () => {
  it.each([
    '@bea@video.example.com',
    'bea@video.example.com',
    ' @bea@127.0.0.3:7135 ',
    'https://video.example.com/ap/channels/1',
    'http://127.0.0.3:7135/ap/channels/x',
  ])('takes %s for a channel of another server', (search) => expect(looksLikeRemoteHandle(search)).toBe(true));

  it.each(['cooking', 'bea', '@bea', 'video.example.com', 'cats @ home', 'bea@', 'ftp://video.example.com'])('takes %s for a plain search', (search) =>
    expect(looksLikeRemoteHandle(search)).toBe(false),
  );
});

describe('displayHandle', () => {
  it('writes a handle with its leading @ and leaves an address alone', () => {
    expect(displayHandle('bea@video.example.com')).toBe('@bea@video.example.com');
    expect(displayHandle('@bea@video.example.com')).toBe('@bea@video.example.com');
    expect(displayHandle('https://video.example.com/ap/channels/1')).toBe('https://video.example.com/ap/channels/1');
  });
});
