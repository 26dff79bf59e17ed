import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { answer, fakeApi, renderWithQueries } from '@/test/fake-api';
import { LinkedAccounts } from './linked-accounts';
import { ProviderButtons } from './provider-buttons';

const instance = (signInProviders: { name: string; label: string }[]) => ({
  name: 'Reelhouse',
  description: '',
  signupMode: 'open',
  demoAccount: false,
  email: { enabled: false, verification: 'off' },
  passwordSignIn: true,
  signInProviders,
  federation: false,
  limits: { maxVideoBytes: 1, maxVideoDurationSeconds: null, defaultQuotaBytes: -1, defaultDailyQuotaBytes: -1 },
});
const identity = {
  _id: 'identity01',
  provider: 'campus',
  label: 'Campus ID',
  email: 'ada@campus.example',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
};
const at = (path: string, ui: ReactNode) => renderWithQueries(<MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>);

describe('ProviderButtons', () => {
  it('links to each provider with the page to come back to, and shows a refusal the provider came back with', async () => {
    fakeApi(() =>
      instance([
        { name: 'campus', label: 'Campus ID' },
        { name: 'work', label: 'Work account' },
      ]),
    );
    at('/login?ssoError=Campus%20ID%20did%20not%20sign%20you%20in', <ProviderButtons returnTo="/watch/abc?t=3" />);
    const campus = await screen.findByRole('link', { name: 'Sign in with Campus ID' });
    expect(campus.getAttribute('href')).toBe('/api/v1/auth/oidc/campus?returnTo=%2Fwatch%2Fabc%3Ft%3D3');
    expect(screen.getByRole('link', { name: 'Sign in with Work account' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Campus ID did not sign you in');
  });

  it('shows nothing on a site without providers', async () => {
    const calls = fakeApi(() => instance([]));
    const { container } = at('/login', <ProviderButtons />);
    await waitFor(() => expect(calls).toContain('GET /api/v1/instance'));
    expect(container.textContent).toBe('');
  });
});

describe('LinkedAccounts', () => {
  it('lists the linked providers, offers the others to link, and unlinks after a confirm', async () => {
    let linked = [identity];
    const calls = fakeApi(({ method, path }) => {
      if (path.endsWith('/instance'))
        return instance([
          { name: 'campus', label: 'Campus ID' },
          { name: 'work', label: 'Work account' },
        ]);
      if (method === 'DELETE') {
        linked = [];
        return {};
      }
      return linked;
    });
    const notify = vi.fn();
    at('/ada/devices', <LinkedAccounts notify={notify} />);
    expect((await screen.findByTestId('linked-account')).textContent).toContain('ada@campus.example');
    expect(screen.queryByRole('link', { name: 'Link Campus ID' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Link Work account' }).getAttribute('href')).toBe('/api/v1/auth/oidc/work?returnTo=%2Fada%2Fdevices&link=true');

    fireEvent.click(screen.getByRole('button', { name: 'Unlink Campus ID' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('Unlinked Campus ID', 'success'));
    expect(calls).toContain('DELETE /api/v1/users/identities/identity01');
    expect(await screen.findByText('No account is linked yet.')).toBeTruthy();
  });

  it("tells why unlinking was refused (the account's only way in)", async () => {
    fakeApi(({ method, path }) => {
      if (path.endsWith('/instance')) return instance([{ name: 'campus', label: 'Campus ID' }]);
      if (method === 'DELETE') return answer(null, 409, 'This is the only way into your account: set a password first');
      return [identity];
    });
    const notify = vi.fn();
    at('/ada/devices', <LinkedAccounts notify={notify} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink Campus ID' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('This is the only way into your account: set a password first', 'error'));
  });
});
