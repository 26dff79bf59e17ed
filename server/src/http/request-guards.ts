import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from './errors.js';
import { badRequest, uriTooLong } from './errors.js';

/**
 * Failures that happen before a route runs: Node's HTTP parser (header or request line too large,
 * malformed request), the router (bad percent-encoding, an over-long path parameter) and an
 * over-long URL. Each answers with the same envelope as every other error, and never hangs.
 */

/** Longer URLs are refused with 414; Node's header limit (16 KiB, request line included) answers 431 above that. */
export const MAX_URL_LENGTH = 8 * 1024;

/** A request the HTTP parser could not read: answer on the raw socket, then close it. */
export function clientErrorHandler(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket) {
  // As Node's own handler does: a socket already part-way through an answer (keep-alive) cannot
  // carry another one, and a reset or timed-out connection has no one left to answer.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers are too large (the URL counts towards them)']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ statusCode: status, data: null, message, success: false });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Router failures (Fastify's frameworkErrors option). They are raised outside every route, where the
 * app's error handler does not reach, so the envelope is written here.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const answer: AppError =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? uriTooLong()
      : err.code === 'FST_ERR_BAD_URL'
        ? badRequest('The URL has a malformed percent-encoding')
        : badRequest('Bad request');
  return reply
    .status(answer.statusCode)
    .header('connection', 'close')
    .send({ statusCode: answer.statusCode, data: null, message: answer.message, success: false });
}

/**
 * The first hooks of every request: an over-long URL is refused before any other work, and so is
 * a NUL character anywhere in the URL or a JSON body. No text field has a use for NUL, PostgreSQL
 * refuses to store it (which would otherwise surface as a 500) and SQLite would keep it silently.
 */
export function registerUrlLengthGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const url = request.raw.url ?? '';
    if (url.length > MAX_URL_LENGTH) throw uriTooLong();
    if (/%00/.test(url) || url.includes('\0')) throw badRequest('The URL must not contain NUL characters');
  });
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined && containsNul(request.body)) throw badRequest('Text must not contain NUL characters');
  });
  // JSON is UTF-8 without a byte-order mark (RFC 8259); the default parser would drop one silently,
  // so a body the client did not mean as plain JSON could pass where `{}` is a valid call.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.startsWith('\uFEFF')) return done(badRequest('The JSON body must not start with a byte-order mark'), undefined);
    return parseJson(request, body as string, done);
  });
}

/** Whether any string (or key) in a parsed JSON value holds a NUL character. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (!value || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  // Only parsed JSON: raw bodies (upload chunks as Buffers, streams) are data, not text.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\0') || containsNul(v, depth + 1));
}
