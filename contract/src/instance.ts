import './browser-config.js';
import { z } from 'zod';
import { InstanceEmail } from './account-email.js';
import { SignInProvider } from './single-sign-on.js';

export const SIGNUP_MODES = ['open', 'closed', 'approval'] as const;
export const SignupMode = z.enum(SIGNUP_MODES, { error: `signupMode must be one of ${SIGNUP_MODES.join(', ')}` });
export type SignupMode = z.infer<typeof SignupMode>;

/** Who may go live: everyone, only accounts an admin has allowed (admins always), or nobody. */
export const LIVE_ALLOWED = ['everyone', 'approved', 'nobody'] as const;
export const LiveAllowed = z.enum(LIVE_ALLOWED, { error: `liveAllowed must be one of ${LIVE_ALLOWED.join(', ')}` });
export type LiveAllowed = z.infer<typeof LiveAllowed>;

/** Heights of the HLS ladder's rungs a site may make (a source never gets a rung above its own size). */
export const LADDER_RUNGS = [240, 360, 480, 720, 1080] as const;

const wholeNumber = (name: string, min: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`);

/** The site's settings, kept in the database and changed by admins. */
export const InstanceSettings = z.object({
  name: z.string({ error: 'name must be text' }).trim().min(1, 'name is required').max(60, 'name must be at most 60 characters'),
  description: z.string({ error: 'description must be text' }).trim().max(500, 'description must be at most 500 characters'),
  /** open: anyone signs up; closed: nobody; approval: accounts wait for an admin before signing in. */
  signupMode: SignupMode,
  /** Largest video upload in bytes (never above the server's MAX_VIDEO_BYTES). */
  maxVideoBytes: wholeNumber('maxVideoBytes', 1),
  /** Longest video in seconds; null for no limit. */
  maxVideoDurationSeconds: wholeNumber('maxVideoDurationSeconds', 1).nullable(),
  /** Bytes of uploads an account may keep unless it has its own quota; -1 for no limit. */
  defaultQuotaBytes: wholeNumber('defaultQuotaBytes', -1),
  /** Bytes an account may upload per 24 hours unless it has its own quota; -1 for no limit. */
  defaultDailyQuotaBytes: wholeNumber('defaultDailyQuotaBytes', -1),
  /** Which rungs of the HLS ladder new videos get (by height); at least one. */
  ladderRungs: z
    .array(
      z.union(
        LADDER_RUNGS.map((h) => z.literal(h)),
        { error: `ladderRungs must be heights among ${LADDER_RUNGS.join(', ')}` },
      ),
      { error: 'ladderRungs must be a list of heights' },
    )
    .min(1, 'ladderRungs needs at least one rung')
    .refine((r) => new Set(r).size === r.length, 'ladderRungs must not repeat a height'),
  /** Whether the shared demo account may sign in. */
  demoAccount: z.boolean({ error: 'demoAccount must be true or false' }),
  /**
   * Whether people sign up and sign in with a password (and passkeys). Off, only the single sign-on
   * providers are offered, and admins keep their passwords so that nobody is locked out.
   */
  passwordSignIn: z.boolean({ error: 'passwordSignIn must be true or false' }),
  /** Who may make lives and publish them. */
  liveAllowed: LiveAllowed,
  /** Most lives on air at once on the whole site; 0 for no limit. */
  maxLivesOnAir: wholeNumber('maxLivesOnAir', 0).max(100_000, 'maxLivesOnAir must be at most 100000'),
  /** Most lives on air at once of one account; 0 for no limit. */
  maxLivesOnAirPerUser: wholeNumber('maxLivesOnAirPerUser', 0).max(1000, 'maxLivesOnAirPerUser must be at most 1000'),
  /** Longest a live stays on air, in minutes: one that reaches it is ended as its owner would end it. */
  maxLiveMinutes: wholeNumber('maxLiveMinutes', 1).max(10_080, 'maxLiveMinutes must be at most 10080 (a week)'),
});
export type InstanceSettings = z.infer<typeof InstanceSettings>;

export const InstanceSettingsPatch = InstanceSettings.partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'No setting given' });
export type InstanceSettingsPatch = z.infer<typeof InstanceSettingsPatch>;

/** What any client needs to know about the site before signing in (GET /instance). */
export const PublicInstance = z.object({
  name: z.string(),
  description: z.string(),
  signupMode: SignupMode,
  demoAccount: z.boolean(),
  /** Whether the site sends mail: without it, password resets and address checks are not offered. */
  email: InstanceEmail,
  /** Off: only the single sign-on providers sign people in (and admins with their passwords). */
  passwordSignIn: z.boolean(),
  /** The single sign-on providers the operator set up (OIDC_PROVIDERS): a "Sign in with LABEL" button each. */
  signInProviders: z.array(SignInProvider),
  /** Whether the site federates over ActivityPub: remote channels can be followed, and admins block servers. */
  federation: z.boolean(),
  limits: z.object({
    maxVideoBytes: z.number().int(),
    maxVideoDurationSeconds: z.number().int().nullable(),
    defaultQuotaBytes: z.number().int(),
    defaultDailyQuotaBytes: z.number().int(),
  }),
});
export type PublicInstance = z.infer<typeof PublicInstance>;
