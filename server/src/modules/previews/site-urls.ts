import type { FastifyRequest } from 'fastify';

/**
 * The site's public origin, which every link a feed, a preview or an oEmbed answer gives out is
 * built on: PUBLIC_URL when set, else the origin the request was sent to (the Host header, and
 * X-Forwarded-Proto behind a trusted proxy).
 */
export function siteOrigin(publicUrl: string | null, request: FastifyRequest): string {
  if (publicUrl) return new URL(publicUrl).origin;
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    // A Host header no URL can be made of: links still need some origin; PUBLIC_URL avoids this.
    return `${request.protocol}://localhost`;
  }
}

/** Media URLs are relative (/media/...) unless PUBLIC_URL or a CDN made them absolute; links leaving the site must not be. */
export function absoluteUrl(origin: string, url: string): string {
  return new URL(url, `${origin}/`).toString();
}

/** A video's page and embed page on this site. */
export const videoPageUrl = (origin: string, id: string) => `${origin}/video/${encodeURIComponent(id)}`;
export const embedPageUrl = (origin: string, id: string) => `${origin}/embed/${encodeURIComponent(id)}`;
export const channelPageUrl = (origin: string, username: string) => `${origin}/channel/${encodeURIComponent(username)}`;
