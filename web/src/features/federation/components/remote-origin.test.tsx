import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { RemoteChannelOrigin, RemoteVideoOrigin } from './remote-origin';

afterEach(cleanup);

describe('RemoteChannelOrigin', () => {
  it('says where the channel lives and links to its page there, in a new tab that is not told where it came from', () => {
    render(<RemoteChannelOrigin url="http://127.0.0.3:7135/channel/bea" />);
    expect(screen.getByTestId('origin-badge').textContent).toBe('On 127.0.0.3:7135');
    const link = screen.getByRole('link', { name: 'View on 127.0.0.3:7135 (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('http://127.0.0.3:7135/channel/bea');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows nothing for an address that does not parse', () => {
    const { container } = render(<RemoteChannelOrigin url="nowhere" />);
    expect(container.textContent).toBe('');
  });
});

describe('RemoteVideoOrigin', () => {
  it('says where the video comes from and links to the original', () => {
    render(<RemoteVideoOrigin url="https://video.example/videos/watch/9" />);
    expect(screen.getByTestId('remote-video-origin').textContent).toMatch(/^From video\.example•View the original/);
    const link = screen.getByRole('link', { name: 'View the original (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('https://video.example/videos/watch/9');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
