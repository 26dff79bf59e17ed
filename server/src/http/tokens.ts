import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const ACCESS_TOKEN_TTL_MS = 15 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 14 * 24 * 3600_000;

interface AccessClaims {
  sub: string;
  sid: string;
  exp: number;
}

/** Short-lived access tokens: an HMAC-signed claim of user, session and expiry. */
export function signAccessToken(secret: string, claims: AccessClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${sig}`;
}

export function verifyAccessToken(secret: string, token: string, now = Date.now()): AccessClaims | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as AccessClaims;
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') return null;
    return claims.exp > now ? claims : null;
  } catch {
    return null;
  }
}

/** Refresh tokens are random; only their hash is stored. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The token that replaces a refresh token on rotation. Derived, not random, so that requests racing
 * with one token all arrive at the same successor without storing it; without the secret nobody
 * can compute it.
 */
export function successorRefreshToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(`refresh-successor:${token}`).digest('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
