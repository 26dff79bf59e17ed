import { z } from 'zod';
import { Id } from './common.js';

/** Largest caption file accepted, and most cues in one. */
export const MAX_CAPTION_BYTES = 1024 * 1024;
export const MAX_CAPTION_CUES = 10_000;
export const MAX_CAPTION_LABEL_LENGTH = 50;
export const MAX_CAPTION_LANGUAGE_LENGTH = 35;

/**
 * A BCP 47 language tag ("en", "pt-BR", "zh-Hant-TW"), answered in its canonical form ("pt-br"
 * becomes "pt-BR"), so that one language is one caption however it was spelled.
 */
export const CaptionLanguage = z
  .string({ error: 'language is required' })
  .trim()
  .min(1, 'language is required')
  .max(MAX_CAPTION_LANGUAGE_LENGTH, `language must be at most ${MAX_CAPTION_LANGUAGE_LENGTH} characters`)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'language must be a BCP 47 language tag such as en or pt-BR')
  .transform((tag, ctx) => {
    try {
      return Intl.getCanonicalLocales(tag)[0]!;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'language must be a BCP 47 language tag such as en or pt-BR' });
      return z.NEVER;
    }
  });

export const CaptionLabel = z
  .string()
  .trim()
  .max(MAX_CAPTION_LABEL_LENGTH, `label must be at most ${MAX_CAPTION_LABEL_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'label must be one line of text');

/** The text fields of POST /videos/{id}/captions (the file is the multipart field `file`). */
export const CaptionUploadFields = z.object({
  language: CaptionLanguage,
  /** Shown in the player's captions menu; the language's English name when left out. */
  label: CaptionLabel.optional(),
});
export type CaptionUploadFields = z.infer<typeof CaptionUploadFields>;

/** One caption track of a video: a cleaned WebVTT file. */
export const Caption = z.object({
  _id: Id,
  language: z.string(),
  label: z.string(),
  url: z.string(),
});
export type Caption = z.infer<typeof Caption>;

export const CaptionParams = z.object({ id: Id, captionId: Id });

/** On a search result whose match came from what is said in the video: the first matching cue. */
export const CaptionMatch = z.object({
  /** Seconds from the start of the video. */
  start: z.number().min(0),
  /** The cue's words, without markup. */
  text: z.string(),
});
export type CaptionMatch = z.infer<typeof CaptionMatch>;
