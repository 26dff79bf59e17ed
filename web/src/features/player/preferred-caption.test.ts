import { describe, expect, it } from 'vitest';
import { preferredCaption } from './preferred-caption';

const tracks = [
  { language: 'en', url: '/en.vtt' },
  { language: 'fr-CA', url: '/fr-ca.vtt' },
  { language: 'pt-BR', url: '/pt-br.vtt' },
];

describe('preferredCaption', () => {
  it('takes the track in the interface language, exactly or by its primary subtag', () => {
    expect(preferredCaption(tracks, 'pt-BR')?.url).toBe('/pt-br.vtt');
    expect(preferredCaption(tracks, 'fr')?.url).toBe('/fr-ca.vtt');
  });

  it('falls back to the first track, and to none when the video has no captions', () => {
    expect(preferredCaption(tracks, 'ja')?.url).toBe('/en.vtt');
    expect(preferredCaption([], 'en')).toBeNull();
  });
});
