import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from './tokens.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth.js';

const base = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: request.protocol === 'https',
  path: '/',
});

export function setAuthCookies(request: FastifyRequest, reply: FastifyReply, tokens: { accessToken: string; refreshToken: string }) {
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, { ...base(request), maxAge: ACCESS_TOKEN_TTL_MS / 1000 });
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, { ...base(request), maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
}

export function clearAuthCookies(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(ACCESS_COOKIE, base(request));
  reply.clearCookie(REFRESH_COOKIE, base(request));
}

/** The tokens for the answer's body: only for a client that asked with X-Return-Tokens: true, else none. */
export function tokensInAnswer(request: FastifyRequest, tokens: { accessToken: string; refreshToken: string }) {
  const header = request.headers['x-return-tokens'];
  const asked = typeof header === 'string' && header.trim().toLowerCase() === 'true';
  return asked ? { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } : {};
}
