import { z } from 'zod';
import { Email, Password } from './users.js';

export const EMAIL_VERIFICATION_MODES = ['off', 'optional', 'required'] as const;
/** off: addresses are not checked; optional: checked, but unchecked accounts sign in; required: they cannot until checked. */
export const EmailVerificationMode = z.enum(EMAIL_VERIFICATION_MODES);
export type EmailVerificationMode = z.infer<typeof EmailVerificationMode>;

/** Whether the site sends mail (password resets, address checks), in GET /instance. */
export const InstanceEmail = z.object({ enabled: z.boolean(), verification: EmailVerificationMode });
export type InstanceEmail = z.infer<typeof InstanceEmail>;

const Token = z.string({ error: 'token is required' }).trim().min(1, 'token is required').max(200, 'token is not a valid link token');

export const ForgotPasswordBody = z.object({ email: Email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ResetPasswordBody = z.object({ token: Token, newPassword: Password });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const VerifyEmailBody = z.object({ token: Token });
export type VerifyEmailBody = z.infer<typeof VerifyEmailBody>;
