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

/** What a tus server says about itself in its OPTIONS answer. */
const TUS_DISCOVERY_HEADERS = ['Tus-Version', 'Tus-Extension', 'Tus-Max-Size'];

export const CORS_ALLOWED_HEADERS = ['Content-Type', 'Authorization', 'X-Return-Tokens', 'X-Request-Id', 'Range', 'If-Range', ...TUS_HEADERS];
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Content-Range',
  'Accept-Ranges',
  'Content-Length',
  ...TUS_HEADERS,
  ...TUS_DISCOVERY_HEADERS,
];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors options of one route, over the plugin's own. */
    cors?: { strictPreflight?: boolean; preflightContinue?: boolean };
  }
}

/**
 * Route config for an OPTIONS route of its own (tus discovery): a listed origin's OPTIONS, preflight
 * or not, gets the CORS headers and goes on to the route, which answers it. Without this the CORS
 * hook would answer a preflight itself and refuse a plain OPTIONS with an Origin as a bad preflight.
 */
export const CORS_OPTIONS_ROUTE = { cors: { strictPreflight: false, preflightContinue: true } };

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
