import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from './errors.js';
import { dropUnreadBody } from './unread-body.js';

/** Renders every failure as the envelope; 5xx answers never carry internal details. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(async (err: FastifyError | AppError, request, reply) => {
    // Refused before its body was all read: the client hears the answer once it has sent the rest.
    if (!request.raw.complete) await dropUnreadBody(request.raw);
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, 'request failed');
      return reply.headers(err.headers).status(err.statusCode).send({ statusCode: err.statusCode, data: err.details, message: err.message, success: false });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: FieldError[] = err.validation.map((v) => ({
        path:
          [v.instancePath.replace(/^\//, '').replace(/\//g, '.')].filter(Boolean).join('.') ||
          String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? ''),
        message: v.message ?? 'Invalid value',
      }));
      const message = errors.map((e) => e.message).join('; ');
      return reply.status(400).send({ statusCode: 400, data: { errors }, message, success: false });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.status(500).send({ statusCode: 500, data: null, message: 'Internal server error', success: false });
    }
    const message = publicMessage(err, status);
    if (status === 429 && !reply.getHeader('retry-after')) reply.header('retry-after', '60');
    return reply.status(status).send({ statusCode: status, data: null, message, success: false });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      statusCode: 404,
      data: null,
      message: `Route ${request.method} ${shortPath(request.url)} not found`,
      success: false,
    });
  });
}

/** The path of a URL, cut short so that a huge URL is not echoed back whole. */
export function shortPath(url: string): string {
  const p = url.split('?')[0]!;
  return p.length > 200 ? `${p.slice(0, 200)}...` : p;
}

/** Fastify's own 4xx errors (bad JSON, body too large...) carry messages fit for people. */
function publicMessage(err: FastifyError, status: number): string {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) return 'Request body is too large';
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Unsupported content type';
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'Request body is empty';
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return 'Request body is not valid JSON';
  return err.message || 'Bad request';
}
