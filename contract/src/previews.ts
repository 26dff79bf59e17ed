import './browser-config.js';
import { z } from 'zod';
import { envelope } from './common.js';
import { LANGUAGES, matchLanguage, USERNAME_PATTERN } from './users.js';

/** Feed formats, told apart by the file extension of the feed's URL. */
export const FEED_FORMATS = ['xml', 'atom'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** `/feeds/channel/{username}.xml` or `.atom`: one path segment, split here so a bad one is a 400. */
export const ChannelFeedParams = z.object({
  file: z
    .string()
    .regex(/^[A-Za-z0-9_.]{3,30}\.(xml|atom)$/, 'the feed must be {username}.xml or {username}.atom')
    .transform((file) => {
      const dot = file.lastIndexOf('.');
      return { username: file.slice(0, dot).toLowerCase(), format: file.slice(dot + 1) as FeedFormat };
    })
    .refine((f) => USERNAME_PATTERN.test(f.username), 'username must be 3-30 characters of a-z, 0-9, _ and .'),
});

const LANG_REFUSAL = `lang must be one of ${LANGUAGES.join(', ')} (or a regional tag of one, such as fr-CA)`;

/**
 * A feed's query: `lang` asks for the feed's own words (title, description) in a language, as feed
 * readers seldom let anyone set Accept-Language. A regional tag gets its language (`fr-CA` French).
 */
export const FeedQuery = z.object({
  lang: z
    .string({ error: LANG_REFUSAL })
    .max(35, LANG_REFUSAL)
    .refine((tag) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) && matchLanguage(tag) !== undefined, LANG_REFUSAL)
    .transform((tag) => matchLanguage(tag)!)
    .optional(),
});
export type FeedQuery = z.infer<typeof FeedQuery>;

const dimension = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(16, `${name} must be at least 16`)
    .max(8192, `${name} must be at most 8192`)
    .optional();

const isHttpUrl = (value: string) => {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** oEmbed 1.0 request: the page URL of a video on this site, and the consumer's size limits. */
export const OembedQuery = z.object({
  url: z.string({ error: 'url is required' }).max(2048, 'url is too long').refine(isHttpUrl, 'url must be an http or https URL'),
  maxwidth: dimension('maxwidth'),
  maxheight: dimension('maxheight'),
  format: z.enum(['json', 'xml'], { error: 'format must be json (xml is not offered)' }).default('json'),
});
export type OembedQuery = z.infer<typeof OembedQuery>;

/** oEmbed 1.0 "video" answer (https://oembed.com, section 2.3.4). */
export const Oembed = z.object({
  version: z.literal('1.0'),
  type: z.literal('video'),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  cache_age: z.number().int(),
  thumbnail_url: z.string(),
  thumbnail_width: z.number().int(),
  thumbnail_height: z.number().int(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type Oembed = z.infer<typeof Oembed>;

/**
 * The oEmbed answer carries the oEmbed fields at the top level, as oEmbed consumers read them, and
 * the envelope's fields beside them (with the same object as data) for this API's own clients.
 */
export const OembedAnswer = envelope(Oembed).extend(Oembed.shape);
export type OembedAnswer = z.infer<typeof OembedAnswer>;
