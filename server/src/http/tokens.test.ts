import { describe, expect, it } from 'vitest';
import { hashToken, newRefreshToken, signAccessToken, verifyAccessToken } from './tokens.js';

describe('access tokens', () => {
  const claims = { sub: 'user1', sid: 'session1', exp: 2_000 };

  it('verify what was signed, until they expire', () => {
    const token = signAccessToken('secret', claims);
    expect(verifyAccessToken('secret', token, 1_999)).toEqual(claims);
    expect(verifyAccessToken('secret', token, 2_000)).toBeNull();
  });

  it('reject another secret, a changed claim, and malformed input', () => {
    const token = signAccessToken('secret', claims);
    expect(verifyAccessToken('other', token, 0)).toBeNull();
    const [, sig] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${sig}`;
    expect(verifyAccessToken('secret', forged, 0)).toBeNull();
    for (const bad of ['', 'a', 'a.b.c', `${token}.x`, '.', 'bm90anNvbg.c2ln']) expect(verifyAccessToken('secret', bad, 0)).toBeNull();
  });
});

describe('refresh tokens', () => {
  it('are random and stored only as a hash', () => {
    const a = newRefreshToken();
    expect(a).not.toBe(newRefreshToken());
    expect(a.length).toBeGreaterThanOrEqual(43);
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toContain(a);
  });
});
