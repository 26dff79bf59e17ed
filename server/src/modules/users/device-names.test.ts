import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './device-names.js';

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      { browser: 'Chrome 156', system: 'Linux', device: 'desktop' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      { browser: 'Safari 18', system: 'iOS 18', device: 'mobile' },
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
      { browser: 'Safari 17', system: 'iOS 17', device: 'tablet' },
    ],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:135.0) Gecko/20100101 Firefox/135.0', { browser: 'Firefox 135', system: 'Windows 10', device: 'desktop' }],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      { browser: 'Safari 17', system: 'macOS', device: 'desktop' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      { browser: 'Chrome 131', system: 'Android 14', device: 'mobile' },
    ],
  ])('names %s', (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toEqual(expected);
  });

  it('says "Unknown" for what tells nothing: no user agent, an empty one, a command-line tool', () => {
    const unknown = { browser: 'Unknown', system: 'Unknown', device: null };
    expect(describeUserAgent(null)).toEqual(unknown);
    expect(describeUserAgent('')).toEqual(unknown);
    expect(describeUserAgent('   ')).toEqual(unknown);
    expect(describeUserAgent('curl/8.5.0')).toEqual(unknown);
  });
});
