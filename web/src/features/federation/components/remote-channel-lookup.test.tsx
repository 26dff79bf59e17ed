import type { Channel } from '@reelhouse/contract';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { answer, type FakeCall, fakeApi, renderWithQueries } from '@/test/fake-api';
import { RemoteChannelLookup } from './remote-channel-lookup';

const instance = (federation: boolean) => ({
  name: 'Reelhouse',
  description: '',
  signupMode: 'open',
  demoAccount: false,
  email: { enabled: false, verification: 'off' },
  passwordSignIn: true,
  signInProviders: [],
  federation,
  limits: { maxVideoBytes: 1, maxVideoDurationSeconds: null, defaultQuotaBytes: -1, defaultDailyQuotaBytes: -1 },
});

const bea: Channel = {
  _id: 'remote00001',
  username: 'bea@video.example',
  fullName: 'Bea Cooks',
  avatar: { url: 'https://video.example/media/bea.png' },
  coverImage: { url: '' },
  subscribersCount: 0,
  videosCount: 2,
  isSubscribed: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  remote: true,
  url: 'https://video.example/channel/bea',
};

/** A site that federates (or not), answering the lookup with `lookup`. */
function site(lookup: (call: FakeCall) => unknown, federation = true) {
  return fakeApi((call) => (call.path === '/api/v1/instance' ? instance(federation) : lookup(call)));
}

/** The handle the lookup was asked for, from the last call's query string. */
const askedHandle = () => {
  const urls = vi.mocked(fetch).mock.calls.map(([url]) => new URL(String(url), 'http://x'));
  return urls.find((u) => u.pathname === '/api/v1/federation/lookup')?.searchParams.get('handle');
};

const show = (search: string, signedIn = true) =>
  renderWithQueries(
    <MemoryRouter>
      <RemoteChannelLookup search={search} signedIn={signedIn} renderActions={(c) => <button type="button">Subscribe to {c.fullName}</button>} />
    </MemoryRouter>,
  );

describe('RemoteChannelLookup', () => {
  it('shows the channel it found: name, handle, where it lives, its actions and its page here', async () => {
    let found: (c: Channel) => void = () => {};
    const calls = site(() => new Promise((resolve) => (found = resolve)));
    show(' @bea@video.example ');
    // While the other server is asked, the searcher is told so.
    expect((await screen.findByRole('status')).textContent).toBe('Looking for @bea@video.example…');
    found(bea);
    const card = await screen.findByTestId('remote-channel-card');
    expect(card.textContent).toContain('@bea@video.example');
    expect(screen.getByTestId('origin-badge').textContent).toBe('On video.example');
    expect(screen.getByRole('link', { name: 'Bea Cooks' }).getAttribute('href')).toBe('/channel/bea@video.example');
    expect(screen.getByRole('link', { name: 'View channel' }).getAttribute('href')).toBe('/channel/bea@video.example');
    expect(screen.getByRole('button', { name: 'Subscribe to Bea Cooks' })).toBeTruthy();
    expect(calls).toContain('GET /api/v1/federation/lookup');
    expect(askedHandle()).toBe('@bea@video.example');
  });

  it('shows a channel of this site without a note of elsewhere', async () => {
    site(() => ({ ...bea, username: 'ada', fullName: 'Ada', remote: undefined, url: undefined }));
    show('ada@this.site');
    expect((await screen.findByTestId('remote-channel-card')).textContent).toContain('@ada');
    expect(screen.queryByTestId('origin-badge')).toBeNull();
  });

  it('says so when no channel answers at the handle', async () => {
    site(() => answer(null, 404, 'Channel not found'));
    show('bea@video.example');
    expect((await screen.findByRole('alert')).textContent).toBe('No channel answers at @bea@video.example');
  });

  it("shows the server's message when the other server is blocked here", async () => {
    site(() => answer(null, 422, 'video.example is blocked here'));
    show('https://video.example/ap/channels/1');
    expect((await screen.findByRole('alert')).textContent).toBe('video.example is blocked here');
    expect(askedHandle()).toBe('https://video.example/ap/channels/1');
  });

  it("shows a malformed handle's field error", async () => {
    site(() =>
      answer({ errors: [{ path: 'handle', message: 'handle must be a handle such as @channel@video.example.com, or an address' }] }, 400, 'Validation failed'),
    );
    show('bea@video.example');
    expect((await screen.findByRole('alert')).textContent).toBe('handle must be a handle such as @channel@video.example.com, or an address');
  });

  it('asks a visitor to sign in, and looks nothing up', async () => {
    const calls = site(() => bea);
    show('@bea@video.example', false);
    expect((await screen.findByText(/to follow channels of other servers/)).textContent).toBe('Sign in to follow channels of other servers');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(calls).not.toContain('GET /api/v1/federation/lookup');
  });

  it('shows nothing on a site that does not federate', async () => {
    const calls = site(() => bea, false);
    const { container } = show('@bea@video.example');
    await waitFor(() => expect(calls).toContain('GET /api/v1/instance'));
    expect(container.textContent).toBe('');
    expect(calls).not.toContain('GET /api/v1/federation/lookup');
  });
});
