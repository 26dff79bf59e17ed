import { describe, expect, it } from 'vitest';
import { hostOf } from './origin';

describe('hostOf', () => {
  it('is the host of an address, with its port when it has one', () => {
    expect(hostOf('https://video.example.com/c/cooking')).toBe('video.example.com');
    expect(hostOf('http://127.0.0.3:7135/channel/bea')).toBe('127.0.0.3:7135');
  });

  it('is empty for no address or one that does not parse', () => {
    expect(hostOf(undefined)).toBe('');
    expect(hostOf('not an address')).toBe('');
  });
});
