import { z } from 'zod';
import { Id, IsoDate, MediaRef, PageInfo } from './common.js';
import { VideoSummary } from './videos.js';

export const USERNAME_PATTERN = /^[a-z0-9_.]{3,30}$/;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

export const Username = z
  .string({ error: 'username is required' })
  .trim()
  .toLowerCase()
  .regex(USERNAME_PATTERN, 'username must be 3-30 characters of a-z, 0-9, _ and .');
export const Email = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'email is too long')
  .pipe(z.email('email is not a valid email address'));
export const FullName = z.string({ error: 'fullName is required' }).trim().min(1, 'fullName is required').max(60, 'fullName must be at most 60 characters');
export const Password = z
  .string({ error: 'password is required' })
  .min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** Text fields of POST /users/register (multipart; avatar and coverImage are optional files). */
export const RegisterFields = z.object({
  username: Username,
  email: Email,
  password: Password,
  fullName: FullName,
});
export type RegisterFields = z.infer<typeof RegisterFields>;

export const LoginBody = z.object({
  email: z.string({ error: 'email is required' }).trim().toLowerCase().min(1, 'email is required'),
  password: z.string({ error: 'password is required' }).min(1, 'password is required'),
  /** For an account with two-factor sign-in on: a code from the app, or one of its recovery codes. */
  code: z.string().trim().min(1, 'code must not be blank when sent').max(40, 'code is too long').optional(),
  recoveryCode: z.string().trim().min(1, 'recoveryCode must not be blank when sent').max(40, 'recoveryCode is too long').optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** A blank field of an account update means "leave it as it is", as in a video edit. */
const blankAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const UpdateAccountBody = z
  .object({
    fullName: z.preprocess(blankAsUnset, FullName.optional()),
    username: z.preprocess(blankAsUnset, Username.optional()),
    /** Where the site checks addresses, the change waits until a link mailed to the new address is followed. */
    email: z.preprocess(blankAsUnset, Email.optional()),
  })
  .refine((b) => b.fullName !== undefined || b.username !== undefined || b.email !== undefined, {
    message: 'No update value provided.',
  });
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

export const ChangePasswordBody = z.object({
  oldPassword: z.string({ error: 'oldPassword is required' }).min(1, 'oldPassword is required'),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/**
 * The languages the site speaks (docs/decisions/0057, 0058): its interface, and what the server
 * writes for people (mails, feeds, link previews). BCP 47 tags; English is the default.
 */
export const LANGUAGES = ['en', 'fr', 'es', 'de', 'pt-BR', 'ja', 'ar'] as const;
export const Language = z.enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}, or null to forget the choice` });
export type Language = z.infer<typeof Language>;

/**
 * The language the site speaks for a BCP 47 tag: the same code (`pt-BR`, in any case), else the
 * same base language (`fr-CA` is French, `pt-PT` Brazilian Portuguese, the only Portuguese there
 * is); undefined for a language it does not speak.
 */
export function matchLanguage(tag: string): Language | undefined {
  const exact = LANGUAGES.find((code) => code.toLowerCase() === tag.toLowerCase());
  if (exact) return exact;
  const base = tag.split('-')[0]!.toLowerCase();
  return LANGUAGES.find((code) => code.split('-')[0]!.toLowerCase() === base);
}

/** PATCH /users/language: the account's language, or null to forget the choice (mails then follow the request, else English). */
export const AccountLanguageBody = z.object({ language: Language.nullable() });
export type AccountLanguageBody = z.infer<typeof AccountLanguageBody>;

export const ROLES = ['user', 'moderator', 'admin'] as const;
export const Role = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });
export type Role = z.infer<typeof Role>;

export const User = z.object({
  _id: Id,
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  /** What the account may do beyond its own content: moderate (moderator) or run the site (admin). */
  role: Role,
  /** A sign-up waiting for an admin's approval (sign-ups by approval): it cannot sign in yet. */
  approvalPending: z.boolean(),
  /** Whether sign-in asks for a code from an authenticator app; given by GET /users/user/current. */
  twoFactorEnabled: z.boolean().optional(),
  /** Whether the address was confirmed by following a link mailed to it (always true where the site does not check). */
  emailVerified: z.boolean(),
  /**
   * The language chosen for the account (its mails come in it); null until one is chosen. Always in
   * the server's answers; optional here only so that users made by clients of the earlier contract
   * (test doubles, caches) still type-check.
   */
  language: Language.nullable().optional(),
  avatar: MediaRef,
  coverImage: MediaRef,
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type User = z.infer<typeof User>;

/**
 * The browser flow gets its tokens as httpOnly cookies only: a token in a JSON body is readable by
 * any script on the page. API clients that keep tokens themselves ask with this header
 * (docs/decisions/0010).
 */
export const ReturnTokensHeaders = z.object({
  'x-return-tokens': z
    .string()
    .optional()
    .describe('Send "true" to get accessToken and refreshToken in the answer as well as in cookies (API and mobile clients)'),
});

/** The answer to a sign-in (password or passkey): the account, and its tokens when X-Return-Tokens asked for them. */
export const LoginResult = z.object({ user: User, accessToken: z.string().optional(), refreshToken: z.string().optional() });
export type LoginResult = z.infer<typeof LoginResult>;

export const Channel = z.object({
  _id: Id,
  username: z.string(),
  fullName: z.string(),
  avatar: MediaRef,
  coverImage: MediaRef,
  subscribersCount: z.number().int(),
  videosCount: z.number().int(),
  isSubscribed: z.boolean(),
  createdAt: IsoDate,
  /** Present, true, on a channel of another server (its username is then `name@host`). */
  remote: z.boolean().optional(),
  /** A remote channel's page on its own site. */
  url: z.string().optional(),
});
export type Channel = z.infer<typeof Channel>;

export const WatchHistoryPage = PageInfo.extend({
  watchHistory: z.array(VideoSummary.extend({ watchedAt: IsoDate })),
});
export type WatchHistoryPage = z.infer<typeof WatchHistoryPage>;
