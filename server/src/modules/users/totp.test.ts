import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { codeStep, hashRecoveryCode, newRecoveryCodes, newTotpSecret, SecretBox } from './totp.js';

// RFC 6238, appendix B: the SHA-1 secret "12345678901234567890" gives 94287082 at 59 s (6 digits: 287082).
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;

describe('codeStep', () => {
  it('accepts the RFC 6238 test vector at its time, giving its step', () => {
    expect(codeStep(RFC_SECRET, '287082', 59_000)).toBe(1);
    expect(codeStep(RFC_SECRET, '081804', 1_111_111_109_000)).toBe(37_037_036);
  });

  it('accepts one step either side of now and no further', () => {
    const secret = newTotpSecret();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const now = 1_800_000_015_000;
    const step = Math.floor(now / 30_000);
    for (const d of [-1, 0, 1]) expect(codeStep(secret, totp.generate({ timestamp: now + d * 30_000 }), now)).toBe(step + d);
    for (const d of [-2, 2]) expect(codeStep(secret, totp.generate({ timestamp: now + d * 30_000 }), now)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes, hashed the same however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    const c = codes[0]!;
    expect(hashRecoveryCode(` ${c.toUpperCase().replace('-', ' ')} `)).toBe(hashRecoveryCode(c));
    expect(hashRecoveryCode(c)).not.toBe(hashRecoveryCode(codes[1]!));
  });
});

describe('SecretBox', () => {
  it('opens what it sealed, and what another site sealed not at all', () => {
    const box = new SecretBox('site-one-signing-secret');
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => new SecretBox('site-two-signing-secret').open(sealed)).toThrow();
    expect(() => box.open('plain')).toThrow(/cannot read/);
  });
});
