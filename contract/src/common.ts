import './browser-config.js';
import { z } from 'zod';

/** Opaque, URL-safe ids (never sequential): they appear in links people share. */
export const Id = z.string().regex(/^[A-Za-z0-9_-]{6,40}$/, 'Invalid id');
export type Id = z.infer<typeof Id>;

/** Media fields are objects with a url so that a CDN or object-store URL can replace a local one. */
export const MediaRef = z.object({ url: z.string() });
export type MediaRef = z.infer<typeof MediaRef>;

export const IsoDate = z.string();

export const SORT_FIELDS = ['createdAt', 'views', 'duration', 'title'] as const;
export const SORT_TYPES = ['asc', 'desc'] as const;
export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 50;

const positiveInt = (name: string, max?: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max ?? Number.MAX_SAFE_INTEGER, `${name} must be at most ${max}`);

/** Query string of every paged list. Unknown sort values are a 400, never a silent fallback. */
export const PageQuery = z.object({
  pageNumber: positiveInt('pageNumber').default(1),
  pageSize: positiveInt('pageSize', MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  sortBy: z.enum(SORT_FIELDS, { error: `sortBy must be one of ${SORT_FIELDS.join(', ')}` }).default('createdAt'),
  sortType: z.enum(SORT_TYPES, { error: `sortType must be one of ${SORT_TYPES.join(', ')}` }).default('desc'),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const PageInfo = z.object({
  totalDocs: z.number().int(),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  hasNextPage: z.boolean(),
  hasPrevPage: z.boolean(),
  nextPage: z.number().int().nullable(),
  prevPage: z.number().int().nullable(),
});
export type PageInfo = z.infer<typeof PageInfo>;

/** Builds the page fields of a paged answer from a total and the request's page. */
export function pageInfo(totalDocs: number, pageNumber: number, pageSize: number): PageInfo {
  const totalPages = Math.max(1, Math.ceil(totalDocs / pageSize));
  const hasNextPage = pageNumber < totalPages;
  const hasPrevPage = pageNumber > 1;
  return {
    totalDocs,
    currentPage: pageNumber,
    totalPages,
    hasNextPage,
    hasPrevPage,
    nextPage: hasNextPage ? pageNumber + 1 : null,
    prevPage: hasPrevPage ? Math.min(pageNumber - 1, totalPages) : null,
  };
}

/** The envelope of every answer, success or failure. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({
    statusCode: z.number().int(),
    data,
    message: z.string(),
    success: z.boolean(),
  });

export const ValidationErrorData = z.object({
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});

export const ErrorEnvelope = z.object({
  statusCode: z.number().int(),
  data: ValidationErrorData.nullable(),
  message: z.string(),
  success: z.literal(false),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export type Envelope<T> = { statusCode: number; data: T; message: string; success: boolean };
