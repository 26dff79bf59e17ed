import type { VideoDetail } from '@reelhouse/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { liveStageFor } from './live-stage';

afterEach(cleanup);

const base = {
  _id: 'vid0000001',
  title: 'Kitchen live',
  status: 'ready',
  hls: null,
  videoFile: { url: '' },
  thumbnail: { url: '/t.webp' },
} as unknown as VideoDetail;
const live = (status: 'upcoming' | 'live' | 'ended', scheduledStart: string | null = null) => ({
  status,
  scheduledStart,
  startedAt: null,
  endedAt: null,
  viewers: 0,
});
const opts = { onAir: false, theater: false, onTheaterChange: () => {}, onViewCounted: () => {} };

describe('liveStageFor', () => {
  it('is nothing for an ordinary video', () => {
    expect(liveStageFor(base, opts)).toBeNull();
  });

  it('counts down to a scheduled live, and waits for one on air whose playlist is not there yet', () => {
    render(<>{liveStageFor({ ...base, live: live('upcoming', new Date(Date.now() + 3_725_000).toISOString()) }, opts)}</>);
    expect(screen.getByRole('timer').textContent).toMatch(/^Live starts in 1 h 02 min$/);
    cleanup();
    render(<>{liveStageFor({ ...base, live: live('live'), hls: { url: '/media/videos/v/broadcast/master.m3u8' } }, opts)}</>);
    expect(screen.getByRole('timer').textContent).toBe('Waiting for the stream to start');
  });

  it('says an ended live with nothing to play has ended, and leaves a replay to the ordinary player', () => {
    render(<>{liveStageFor({ ...base, live: live('ended') }, opts)}</>);
    expect(screen.getByText('This live has ended')).toBeTruthy();
    expect(liveStageFor({ ...base, live: live('ended'), hls: { url: '/media/videos/v/hls/master.m3u8' }, videoFile: { url: '/v.mp4' } }, opts)).toBeNull();
    // Still processing: the ordinary processing state shows.
    expect(liveStageFor({ ...base, status: 'processing', live: live('ended'), videoFile: { url: '/source.ts' } }, opts)).toBeNull();
  });
});
