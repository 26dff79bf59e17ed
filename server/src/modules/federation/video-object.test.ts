import { Link, PUBLIC_COLLECTION } from '@fedify/fedify';
import { describe, expect, it } from 'vitest';
import type { FederatedVideoRow } from './federation.repository.js';
import { imageType, textToHtml, videoCreated, videoObject, type VideoAddresses } from './video-object.js';

const row = (overrides: Partial<FederatedVideoRow> = {}): FederatedVideoRow => ({
  id: 'v1',
  owner_id: 'u1',
  title: 'Sunset over the bay',
  description: 'Shot on a phone.\nNo filter.\n\nMusic: <none>',
  duration: 123.4,
  width: 1280,
  height: 720,
  video_key: 'videos/v1/video.mp4',
  hls_key: 'videos/v1/hls/master.m3u8',
  thumbnail_key: 'videos/v1/thumbnail.webp',
  listed: 1,
  publish_at: null,
  created_at: Date.UTC(2026, 0, 2, 3, 4, 5),
  updated_at: Date.UTC(2026, 0, 3),
  ...overrides,
});

const at: VideoAddresses = {
  object: new URL('https://video.example/ap/videos/v1'),
  actor: new URL('https://video.example/ap/channels/u1'),
  followers: new URL('https://video.example/ap/channels/u1/followers'),
  page: new URL('https://video.example/video/v1'),
  mp4: new URL('https://video.example/media/videos/v1/video.mp4'),
  hls: new URL('https://video.example/media/videos/v1/hls/master.m3u8'),
  thumbnail: new URL('https://video.example/media/videos/v1/thumbnail.webp'),
};

describe('a video as an ActivityPub Video', () => {
  it('carries what PeerTube publishes: name, content, ISO 8601 duration, links, icon, dates, channel and audience', async () => {
    const video = videoObject(row(), at)!;
    const json = (await video.toJsonLd({ format: 'compact' })) as Record<string, any>;
    expect(json).toMatchObject({
      type: 'Video',
      id: 'https://video.example/ap/videos/v1',
      name: 'Sunset over the bay',
      content: '<p>Shot on a phone.<br>No filter.</p><p>Music: &lt;none&gt;</p>',
      duration: 'PT123S',
      published: '2026-01-02T03:04:05Z',
      updated: '2026-01-03T00:00:00Z',
      attributedTo: 'https://video.example/ap/channels/u1',
      to: 'as:Public',
      cc: 'https://video.example/ap/channels/u1/followers',
      icon: { type: 'Image', url: 'https://video.example/media/videos/v1/thumbnail.webp', mediaType: 'image/webp' },
    });
    const links = video.urls as Link[];
    expect(links.map((l) => [l.mediaType, l.href?.href])).toEqual([
      ['text/html', 'https://video.example/video/v1'],
      ['application/x-mpegURL', 'https://video.example/media/videos/v1/hls/master.m3u8'],
      ['video/mp4', 'https://video.example/media/videos/v1/video.mp4'],
    ]);
    expect(links[2]!.height).toBe(720);
    expect(video.toIds.map(String)).toEqual([PUBLIC_COLLECTION.href]);
  });

  it('leaves out the HLS link until the ladder is made, and dates a scheduled video from its publication', () => {
    const video = videoObject(row({ hls_key: null, publish_at: Date.UTC(2026, 5, 1) }), { ...at, hls: null })!;
    expect((video.urls as Link[]).map((l) => l.mediaType)).toEqual(['text/html', 'video/mp4']);
    expect(video.published?.toString()).toBe('2026-06-01T00:00:00Z');
  });

  it('makes nothing of a video that is not listed: unlisted, private, scheduled, not ready, taken down or its owner banned', () => {
    expect(videoObject(row({ listed: 0 }), at)).toBeNull();
  });

  it("wraps it in the channel's Create, addressed as the video is", async () => {
    const create = videoCreated(videoObject(row(), at)!, at);
    const json = (await create.toJsonLd({ format: 'compact' })) as Record<string, any>;
    expect(json).toMatchObject({
      type: 'Create',
      id: 'https://video.example/ap/videos/v1#create',
      actor: 'https://video.example/ap/channels/u1',
      object: { type: 'Video', id: 'https://video.example/ap/videos/v1' },
      to: 'as:Public',
      cc: 'https://video.example/ap/channels/u1/followers',
    });
  });

  it('names image types by file name, and writes text as escaped HTML', () => {
    expect(imageType(new URL('https://x.test/a.png'))).toBe('image/png');
    expect(imageType(new URL('https://x.test/a.JPG?v=2'))).toBe('image/jpeg');
    expect(imageType(new URL('https://x.test/a'))).toBe('image/jpeg');
    expect(textToHtml('a & "b"')).toBe('<p>a &amp; &quot;b&quot;</p>');
    expect(textToHtml('')).toBe('');
  });
});
