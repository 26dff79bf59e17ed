import { z } from 'zod';

/** Loopback hosts, where a plain-HTTP issuer is allowed (a provider on the same machine, tests). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const Provider = z
  .object({
    name: z
      .string({ error: 'each provider needs a name' })
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a provider name is 1-40 characters of a-z, 0-9 and -, as it appears in URLs'),
    label: z
      .string({ error: 'each provider needs a label' })
      .trim()
      .min(1, 'a provider label is required')
      .max(40, 'a provider label is at most 40 characters'),
    issuer: z
      .string({ error: 'each provider needs an issuer' })
      .refine((v) => URL.canParse(v), 'an issuer must be a URL like https://accounts.example.com')
      .refine((v) => {
        const u = new URL(v);
        return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
      }, 'an issuer must use https (plain http only on localhost)'),
    clientId: z.string({ error: 'each provider needs a clientId' }).min(1, 'a provider clientId is required'),
    clientSecret: z.string({ error: 'each provider needs a clientSecret' }).min(1, 'a provider clientSecret is required'),
  })
  .strict();

export type OidcProviderSetting = z.infer<typeof Provider>;

/**
 * OIDC_PROVIDERS: a JSON array of the OpenID Connect providers people may sign in with. Checked at
 * start, so that a typo is one clear line and not a button that fails later.
 */
export const OidcProvidersSetting = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of { "name", "label", "issuer", "clientId", "clientSecret" }' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(Provider, { error: 'must be a JSON array of { "name", "label", "issuer", "clientId", "clientSecret" }' })
      .refine((list) => new Set(list.map((p) => p.name)).size === list.length, 'two providers have the same name'),
  );
