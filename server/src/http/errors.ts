/**
 * The one error vocabulary. Services throw these; the error handler renders the envelope.
 * Messages of 4xx errors are shown to people, so they are written for them. 5xx never leak.
 */
export type FieldError = { path: string; message: string };

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: { errors: FieldError[] } | Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, 'BAD_REQUEST', message, errors ? { errors } : null);
export const validationFailed = (errors: FieldError[]) =>
  new AppError(400, 'VALIDATION_FAILED', errors.map((e) => e.message).join('; ') || 'Invalid input', { errors });
export const unauthorized = (message = 'Unauthorized request') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do that') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
/** Clients of the contract look for this marker in `data` as well as in the message (see the decision records). */
export const usernameTaken = () => new AppError(409, 'USERNAME_TAKEN', 'username exists', { error: 'username exists' });
export const payloadTooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);
export const uriTooLong = () => new AppError(414, 'URI_TOO_LONG', 'The URL is too long');
export const unsupportedMediaType = (message: string) => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
export const upgradeRequired = (message: string) => new AppError(426, 'UPGRADE_REQUIRED', message);
export const unprocessable = (message: string) => new AppError(422, 'UNPROCESSABLE', message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', `Too many requests, try again in ${retryAfterSeconds} s`, null, {
    'retry-after': String(retryAfterSeconds),
  });
/** Another server this one needs (a sign-in provider, say) did not answer or answered nonsense: the message says which. */
export const badGateway = (message: string) => new AppError(502, 'BAD_GATEWAY', message);
