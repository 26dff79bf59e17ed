import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';

/** An answer in the API's envelope. */
export const answer = (data: unknown, status = 200, message = 'ok') =>
  new Response(JSON.stringify({ statusCode: status, success: status < 400, message, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export interface FakeCall {
  method: string;
  /** The path without the query string, e.g. /api/v1/users/passkeys. */
  path: string;
  body: unknown;
}

/**
 * Stands in for the server: every fetch the component makes goes to `handle`, which returns the
 * answer (a Response, or data wrapped in a 200 envelope). Returns the calls made, as "METHOD path".
 */
export function fakeApi(handle: (call: FakeCall) => unknown): string[] {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = new URL(url, 'http://x').pathname;
      calls.push(`${method} ${path}`);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const result = await handle({ method, path, body });
      return result instanceof Response ? result : answer(result);
    }),
  );
  return calls;
}

/** Renders a component the way the app does for features that fetch: under a query client, without retries. */
export function renderWithQueries(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

// Every file that fakes the API starts each test on a clean page with the real fetch back.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
