import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Resumable uploads (tus) arrive at the API too; their headers must cross origins both ways. */
const TUS_HEADERS = [
  'Tus-Resumable',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Defer-Length',
  'Upload-Concat',
  'Location',
  'Upload-Expires',
];

export const CORS_ALLOWED_HEADERS = ['Content-Type', 'Authorization', 'X-Return-Tokens', 'X-Request-Id', 'Range', 'If-Range', ...TUS_HEADERS];
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Content-Range', 'Accept-Ranges', 'Content-Length', ...TUS_HEADERS];

/**
 * Credentialed CORS for a web client served from another origin. Off unless origins are listed:
 * a request from any other origin gets no CORS headers at all, so the browser keeps its answer
 * from the page.
 */
export async function registerCors(app: FastifyInstance, allowedOrigins: readonly string[]) {
  if (allowedOrigins.length === 0) return;
  const allowed = new Set(allowedOrigins);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    // Browsers cap this anyway (Chromium at 2 h); ten minutes keeps a changed list from lingering.
    maxAge: 600,
  });
}
