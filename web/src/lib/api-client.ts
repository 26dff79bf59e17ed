import type { Envelope } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';

/** A failed call: the HTTP status and the server's message from the envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;
  constructor(status: number, message: string, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: string;
  /** Sent as JSON unless it is FormData. */
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Calls that must never trigger a refresh (login, the refresh itself). */
  skipRefresh?: boolean;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Called when a refresh fails: the session is over. */
  onSessionExpired?: () => void;
}

/**
 * The API lives beside the client unless the build names another origin (VITE_API_URL, e.g.
 * https://api.example.com) for a client served from a static host.
 */
export const API_BASE = `${(import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '')}/api/v1`;
export const REFRESH_PATH = '/users/refresh-token';

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  let url = baseUrl + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

async function readEnvelope(res: Response): Promise<Envelope<unknown> | null> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as Envelope<unknown>;
  } catch {
    return null;
  }
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? API_BASE;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  // One refresh in flight at a time: concurrent 401s wait on the same promise.
  let refreshing: Promise<boolean> | null = null;

  function refresh(): Promise<boolean> {
    if (!refreshing) {
      refreshing = doFetch(buildUrl(baseUrl, REFRESH_PATH), { method: 'POST', credentials: 'include' })
        .then((res) => res.ok)
        .catch(() => false)
        .then((ok) => {
          if (!ok) options.onSessionExpired?.();
          return ok;
        })
        .finally(() => {
          refreshing = null;
        });
    }
    return refreshing;
  }

  function send(path: string, opts: RequestOptions): Promise<Response> {
    const init: RequestInit = { method: opts.method ?? 'GET', credentials: 'include', signal: opts.signal };
    if (opts.body instanceof FormData) {
      init.body = opts.body;
    } else if (opts.body !== undefined) {
      init.body = JSON.stringify(opts.body);
      init.headers = { 'Content-Type': 'application/json' };
    }
    return doFetch(buildUrl(baseUrl, path, opts.query), init);
  }

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<Envelope<T>> {
    let res = await send(path, opts);
    if (res.status === 401 && !opts.skipRefresh && path !== REFRESH_PATH) {
      // One refresh, one retry: a second 401 is final, never a loop.
      if (await refresh()) res = await send(path, opts);
    }
    const envelope = await readEnvelope(res);
    if (!res.ok || (envelope && envelope.success === false)) {
      throw new ApiError(res.status, envelope?.message || res.statusText || i18n.t('app:errors.requestFailed'), envelope?.data ?? null);
    }
    return envelope as Envelope<T>;
  }

  return {
    request,
    refresh,
    /** The data of a successful answer. */
    async data<T>(path: string, opts?: RequestOptions): Promise<T> {
      return (await request<T>(path, opts)).data;
    },
    get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>(path, { query, signal }).then((e) => e.data),
    post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body }).then((e) => e.data),
    patch: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PATCH', body }).then((e) => e.data),
    del: <T>(path: string) => request<T>(path, { method: 'DELETE' }).then((e) => e.data),
  };
}

type ExpiredListener = () => void;
const expiredListeners = new Set<ExpiredListener>();

/** The app's client. The auth store subscribes to learn when the session ends. */
export const api = createApiClient({ onSessionExpired: () => expiredListeners.forEach((l) => l()) });

export function onSessionExpired(listener: ExpiredListener): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}

export function errorMessage(error: unknown, fallback = i18n.t('app:errors.generic')): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
