import type { FastifyRequest } from 'fastify';

/**
 * The site's own address for links it hands out (mailed links, the single sign-on callback):
 * PUBLIC_URL, else the origin the request was sent to (the Host header, and X-Forwarded-Proto
 * behind a trusted proxy).
 */
export function siteOrigin(publicUrl: string | null, request: FastifyRequest): string {
  if (publicUrl) return publicUrl;
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return `${request.protocol}://localhost`;
  }
}
