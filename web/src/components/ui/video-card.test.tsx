import type { VideoSummary } from '@reelhouse/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { VideoCard } from './video-card';

afterEach(cleanup);

const video = (more: Partial<VideoSummary> = {}): VideoSummary => ({
  _id: 'video000001',
  title: 'Sourdough',
  description: '',
  duration: 65,
  views: 3,
  createdAt: new Date(Date.now() - 86400_000).toISOString(),
  updatedAt: new Date().toISOString(),
  isPublished: true,
  visibility: 'public',
  publishAt: null,
  status: 'ready',
  progress: 100,
  thumbnail: { url: '/t.png' },
  videoFile: { url: '/v.mp4' },
  owner: { _id: 'owner000001', username: 'bea@video.example', fullName: 'Bea Cooks', avatar: { url: '' } },
  ...more,
});

const show = (v: VideoSummary) =>
  render(
    <MemoryRouter>
      <VideoCard video={v} />
    </MemoryRouter>,
  );

describe('VideoCard', () => {
  it('marks a video from another server with a globe named for its host', () => {
    show(video({ remote: true, url: 'https://video.example/videos/watch/9' }));
    expect(screen.getByRole('img', { name: 'From video.example' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Bea Cooks' }).getAttribute('href')).toBe('/channel/bea@video.example');
  });

  it('has no globe on a video of this site', () => {
    show(video({ owner: { _id: 'owner000001', username: 'ada', fullName: 'Ada', avatar: { url: '' } } }));
    expect(screen.queryByTestId('card-remote-mark')).toBeNull();
  });
});
