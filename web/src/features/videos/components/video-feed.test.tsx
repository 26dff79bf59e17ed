import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProcessingStatus } from './processing-status';
import { VideoFeed } from './video-feed';

const video = (i: number) => ({
  _id: `video${String(i).padStart(4, '0')}`,
  title: `Clip ${i}`,
  description: 'd',
  duration: 3725,
  views: 1500,
  createdAt: new Date(Date.now() - 3 * 86400_000).toISOString(),
  updatedAt: new Date().toISOString(),
  isPublished: true,
  status: 'ready',
  progress: 100,
  thumbnail: { url: '/t.png' },
  videoFile: { url: '/v.mp4' },
  owner: { _id: 'owner00001', username: 'ada', fullName: 'Ada L', avatar: { url: '/a.png' } },
});

function renderFeed() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <VideoFeed params={{}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VideoFeed', () => {
  it('shows cards with duration, views, channel and age', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              statusCode: 200,
              success: true,
              message: 'ok',
              data: {
                videos: [video(1), video(2)],
                totalDocs: 2,
                currentPage: 1,
                totalPages: 1,
                hasNextPage: false,
                hasPrevPage: false,
                nextPage: null,
                prevPage: null,
              },
            }),
          ),
      ),
    );
    renderFeed();
    expect(await screen.findByText('Clip 1')).toBeTruthy();
    expect(screen.getAllByTestId('video-card')).toHaveLength(2);
    expect(screen.getAllByText('1:02:05')).toHaveLength(2);
    expect(screen.getAllByText(/1\.5K views/)[0]!.textContent).toContain('3 days ago');
    expect(screen.getAllByText('Ada L').length).toBeGreaterThan(0);
  });

  it("shows 'No videos available' when the load fails", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ statusCode: 500, success: false, message: 'boom', data: null }), { status: 500 })),
    );
    renderFeed();
    expect(await screen.findByText('No videos available')).toBeTruthy();
    expect(screen.queryAllByTestId('video-card')).toHaveLength(0);
  });
});

describe('ProcessingStatus', () => {
  it('shows progress while processing and the reason when failed', () => {
    const base = { ...video(1), status: 'processing', progress: 42, failureReason: null } as never;
    render(<ProcessingStatus video={base} />);
    expect(screen.getByRole('progressbar', { name: 'Processing progress' }).getAttribute('aria-valuenow')).toBe('42');
    cleanup();
    render(<ProcessingStatus video={{ ...(base as object), status: 'failed', failureReason: 'No video stream' } as never} />);
    expect(screen.getByRole('alert').textContent).toContain('No video stream');
  });
});
