import { z } from 'zod';

/** A code from an authenticator app: six digits (spaces people type between them are dropped). */
export const TotpCode = z
  .string({ error: 'code is required' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'code must be the 6 digits your authenticator app shows'));

/** POST /users/2fa/setup: a new secret to add to an authenticator app, not in use until confirmed. */
export const TwoFactorSetup = z.object({
  secret: z.string().describe('The secret in base32, for typing into an app that cannot scan'),
  otpauthUrl: z.string().describe('The otpauth:// URL the QR code holds'),
  qrCode: z.string().describe('The QR code as a data:image/png;base64 URL'),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

export const TwoFactorEnableBody = z.object({ code: TotpCode });
export type TwoFactorEnableBody = z.infer<typeof TwoFactorEnableBody>;

export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()).describe('Ten single-use codes, shown this once') });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

/** The proofs turning it off and new recovery codes take: the password and a code from the app or a recovery code. */
const proofs = {
  password: z.string({ error: 'password is required' }).min(1, 'password is required'),
  code: z.string({ error: 'code is required' }).trim().min(1, 'code is required').max(40, 'code is too long'),
};

export const TwoFactorDisableBody = z.object(proofs);
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBody>;

export const NewRecoveryCodesBody = z.object(proofs);
export type NewRecoveryCodesBody = z.infer<typeof NewRecoveryCodesBody>;

/** The answer to a right password on an account with two-factor sign-in on, when no code came with it. */
export const TwoFactorRequired = z.object({ twoFactorRequired: z.literal(true) });
export type TwoFactorRequired = z.infer<typeof TwoFactorRequired>;
