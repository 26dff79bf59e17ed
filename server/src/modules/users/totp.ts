import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s steps. */
const PERIOD_S = 30;
const DIGITS = 6;
/** One step either side of now is accepted, for clocks a little off and codes typed near a step's end. */
const WINDOW = 1;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totpFor(secretBase32: string, label = 'account', issuer = 'Reelhouse') {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secretBase32: string, label: string, issuer: string): string {
  return totpFor(secretBase32, label, issuer).toString();
}

export function qrCodeDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/**
 * The time step a code belongs to, or null for a wrong code. The library compares in constant time.
 */
export function codeStep(secretBase32: string, code: string, now: number): number | null {
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/** Ten codes like `k3f9q-7hm2x`: about 50 bits each, so a hash without salt or stretching is enough. */
export function newRecoveryCodes(count = 10): string[] {
  const pick = (n: number) => Array.from({ length: n }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => `${pick(5)}-${pick(5)}`);
}

/** The stored form of a recovery code; what people type is read without case, spaces or dashes. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(code.toLowerCase().replace(/[\s-]+/g, ''))
    .digest('base64url');
}

/**
 * Seals TOTP secrets (and live stream keys) with AES-256-GCM under a key derived from the site's
 * signing secret, so that a copy of the database's tables alone does not give the secrets away.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** purpose keeps each use's key apart: a box for stream keys cannot open two-factor secrets. */
  constructor(signingSecret: string, purpose = 'two-factor secrets') {
    this.key = Buffer.from(hkdfSync('sha256', signingSecret, 'reelhouse', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
  }

  open(stored: string): string {
    const [version, iv, tag, sealed] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('A sealed secret is stored in a form this version cannot read');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  }
}
