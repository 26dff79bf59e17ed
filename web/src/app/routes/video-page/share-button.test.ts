import { describe, expect, it } from 'vitest';
import { embedCode } from './share-button';

describe('embedCode', () => {
  it('is an iframe of the embed page on the given origin, 640x360, titled', () => {
    expect(embedCode('https://video.example.com', 'abc_123-XYZ', 'A title')).toBe(
      '<iframe src="https://video.example.com/embed/abc_123-XYZ" width="640" height="360" title="A title" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>',
    );
  });

  it('escapes the title so that it cannot leave its attribute', () => {
    const code = embedCode('http://localhost:7000', 'abcdef', `"><script>alert('x')</script>&`);
    expect(code).toContain('title="&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#38;"');
    expect(code).not.toContain('<script');
    const parsed = new DOMParser().parseFromString(code, 'text/html').querySelector('iframe')!;
    expect(parsed.getAttribute('title')).toBe(`"><script>alert('x')</script>&`);
    expect(parsed.getAttribute('src')).toBe('http://localhost:7000/embed/abcdef');
  });
});
