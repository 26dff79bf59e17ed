import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth.js';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export interface SiteOrigins {
  publicUrl: string | null;
  allowedOrigins: readonly string[];
}

/**
 * Why a browser request authenticated by our cookies is refused as cross-site (null: it came from a
 * page of this site, or it carries a Bearer token, which another site cannot make a browser attach).
 */
export function crossSiteRefusal(opts: SiteOrigins): (request: FastifyRequest) => string | null {
  const listed = new Set(opts.allowedOrigins);
  const publicOrigin = originOf(opts.publicUrl ?? undefined);
  const ownOrigin = (request: FastifyRequest) => publicOrigin ?? originOf(`${request.protocol}://${request.host}`);
  return (request) => {
    if (request.headers.authorization?.startsWith('Bearer ')) return null;
    const cookies = request.cookies ?? {};
    if (cookies[ACCESS_COOKIE] === undefined && cookies[REFRESH_COOKIE] === undefined) return null;
    const header = request.headers.origin;
    const from = header !== undefined ? originOf(header) : originOf(request.headers.referer);
    if (from !== null && (from === ownOrigin(request) || listed.has(from))) return null;
    return header === undefined && request.headers.referer === undefined
      ? 'Cross-site request refused: a signed-in change needs an Origin or Referer header from this site (API clients send a Bearer token instead)'
      : 'Cross-site request refused: this change did not come from a page of this site';
  };
}

/**
 * Cross-site request defence. A state-changing API call that a browser authenticates with our
 * cookies must come from a page of this site: its Origin (or, when a browser sends none, its
 * Referer) has to be the site's own origin (PUBLIC_URL, or the Host it was sent to when that is
 * unset) or one of ALLOWED_ORIGINS. A call with a Bearer token is exempt. SameSite=Lax cookies
 * already stop most of this in current browsers; this covers sibling subdomains, older browsers and
 * anything that lets a cookie through.
 */
export function registerCrossSiteDefence(app: FastifyInstance, opts: SiteOrigins) {
  const refusal = crossSiteRefusal(opts);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const why = refusal(request);
    if (why) throw forbidden(why);
  });
}
