import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, authReducer, initialAuthState } from '@/lib/auth';
import { RequireAuth, SignedOutOnly } from './guards';

const user = {
  _id: 'user123456',
  username: 'ada',
  fullName: 'Ada',
  email: 'ada@example.com',
  role: 'user' as const,
  approvalPending: false,
  emailVerified: true,
  avatar: { url: '/a.png' },
  coverImage: { url: '/c.png' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

function mockServer(signedIn: boolean) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const body = (status: number, data: unknown) =>
      new Response(JSON.stringify({ statusCode: status, data, message: status < 400 ? 'ok' : 'Unauthorized', success: status < 400 }), { status });
    if (url.endsWith('/users/user/current')) return signedIn ? body(200, user) : body(401, null);
    if (url.endsWith('/users/refresh-token')) return body(401, null);
    return body(404, null);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderAt(initialEntries: string[], initialIndex?: number) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>home page</p> },
      { path: '/elsewhere', element: <p>elsewhere page</p> },
      { element: <SignedOutOnly />, children: [{ path: '/login', element: <p>login page</p> }] },
      { element: <RequireAuth />, children: [{ path: '/:username/playlists', element: <p>playlists page</p> }] },
    ],
    { initialEntries, initialIndex },
  );
  render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('route guards', () => {
  it('sends signed-out visitors of a guarded route to /login (after one refresh attempt)', async () => {
    const fetch = mockServer(false);
    const router = renderAt(['/ada/playlists']);
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual(['/api/v1/users/user/current', '/api/v1/users/refresh-token']);
  });

  it('lets signed-in users through', async () => {
    mockServer(true);
    renderAt(['/ada/playlists']);
    expect(await screen.findByText('playlists page')).toBeTruthy();
  });

  it('sends a signed-in user on /login back one step', async () => {
    mockServer(true);
    const router = renderAt(['/elsewhere', '/login'], 1);
    expect(await screen.findByText('elsewhere page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('sends a signed-in user who opened /login directly home', async () => {
    mockServer(true);
    const router = renderAt(['/login']);
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('authReducer', () => {
  it('login success marks the user authenticated; failure and logout clear the user', () => {
    const signedIn = authReducer(initialAuthState, { type: 'login-success', user });
    expect(signedIn).toMatchObject({ user, isAuthenticated: true, appLoading: false });
    expect(authReducer(signedIn, { type: 'login-failure', error: 'boom' })).toMatchObject({ user: null, isAuthenticated: false, error: 'boom' });
    const out = authReducer(signedIn, { type: 'logout', exitTo: '/' });
    expect(out).toMatchObject({ user: null, isAuthenticated: false, exitTo: '/' });
    expect(authReducer(out, { type: 'exit-reached' }).exitTo).toBeNull();
  });
});
