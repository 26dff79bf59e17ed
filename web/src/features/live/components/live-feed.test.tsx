import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '@/test/fake-api';
import { LiveFeed } from './live-feed';

const page = (videos: unknown[]) => ({
  videos,
  totalDocs: videos.length,
  limit: 20,
  page: 1,
  totalPages: 1,
  hasPrevPage: false,
  hasNextPage: false,
  prevPage: null,
  nextPage: null,
});

const onAir = {
  _id: 'vid0000001',
  title: 'Morning show',
  description: 'Live from the kitchen',
  duration: 0,
  views: 3,
  createdAt: '2026-12-01T18:00:00.000Z',
  updatedAt: '2026-12-01T18:00:00.000Z',
  isPublished: true,
  visibility: 'public',
  publishAt: null,
  status: 'ready',
  progress: 100,
  thumbnail: { url: '/t.webp' },
  videoFile: { url: '' },
  owner: { _id: 'own0000001', username: 'host', fullName: 'The Host', avatar: { url: '/h.png' } },
  live: { status: 'live', scheduledStart: null, startedAt: '2026-12-01T18:00:00.000Z', endedAt: null, viewers: 1520 },
};

describe('LiveFeed', () => {
  it('lists videos on air with a LIVE badge and their viewers instead of views', async () => {
    const calls = fakeApi(() => page([onAir]));
    renderWithQueries(
      <MemoryRouter>
        <LiveFeed />
      </MemoryRouter>,
    );
    await screen.findByText('Morning show');
    expect(calls).toEqual(['GET /api/v1/videos/live']);
    expect(screen.getByTestId('card-live-badge').textContent).toBe('Live');
    expect(screen.getByText('1.5K watching')).toBeTruthy();
    expect(screen.queryByText(/views/)).toBeNull();
  });

  it('says so when nobody is live', async () => {
    fakeApi(() => page([]));
    renderWithQueries(
      <MemoryRouter>
        <LiveFeed />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Nobody is live right now')).toBeTruthy();
  });
});
