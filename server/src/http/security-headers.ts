import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeaderSettings {
  /** PUBLIC_URL: the site's own address (media may be absolute under it). */
  publicUrl: string | null;
  /** MEDIA_BASE_URL: a CDN or bucket the player, thumbnails and storyboards load from. */
  mediaBaseUrl: string | null;
  /** The built client's index.html, whose inline scripts (the theme set before first paint) are allowed by hash. */
  indexHtml: string | null;
  /** Where the API's JSON answers live (they get API_HEADERS); none when unset. */
  apiPrefix?: string;
  /**
   * With federation on, remote channels' avatars and videos load from their own servers, wherever
   * those are: any https address (and plain http where private addresses are allowed, as on a
   * private network or in tests).
   */
  remoteMedia?: { plainHttp: boolean } | null;
}

/** A route's security headers, worked out once: names in lower case, with their values. */
export type SecurityHeaderSet = ReadonlyArray<readonly [string, string]>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Route options that let other sites frame a route (an embed page): e.g.
     * `app.get('/embed/:id', { ...app.frameableBy(['*']) }, handler)`. Every other route keeps
     * frame-ancestors 'none'.
     */
    frameableBy(ancestors: readonly string[]): { config: { securityHeaders: SecurityHeaderSet } };
  }
  interface FastifyContextConfig {
    /** Headers in place of the site's own set (see frameableBy). */
    securityHeaders?: SecurityHeaderSet;
  }
}

const HSTS = 'max-age=31536000; includeSubDomains';

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** sha256 sources for every inline <script> of a page (not those with a src). */
export function inlineScriptHashes(html: string | null): string[] {
  if (!html) return [];
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/.test(m[1] ?? '') || !m[2]) continue;
    hashes.push(`'sha256-${createHash('sha256').update(m[2]).digest('base64')}'`);
  }
  return hashes;
}

/**
 * The Content-Security-Policy. The client is plain files from this origin; the player makes MSE
 * blob: sources and hls.js runs a blob: worker; media, thumbnails, storyboard sprites and their
 * WebVTT indexes come from this origin, PUBLIC_URL or the MEDIA_BASE_URL CDN (and, on a site that
 * federates, from the servers of remote channels). Styles allow inline
 * because the player library sets them; scripts never do, except the hashed theme snippet.
 */
export function cspDirectives(s: SecurityHeaderSettings, frameAncestors: readonly string[] = ["'none'"]) {
  const remote = s.remoteMedia ? ['https:', ...(s.remoteMedia.plainHttp ? ['http:'] : [])] : [];
  const media = [...new Set([originOf(s.publicUrl), originOf(s.mediaBaseUrl)].filter((o): o is string => o !== null)), ...remote];
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    scriptSrc: ["'self'", ...inlineScriptHashes(s.indexHtml)],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...media],
    mediaSrc: ["'self'", 'blob:', ...media],
    connectSrc: ["'self'", ...media],
    workerSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    frameAncestors: [...frameAncestors],
    // Plain-http sites (a LAN box, local development) must keep working; HSTS covers https ones.
    upgradeInsecureRequests: null,
  };
}

function helmetOptions(s: SecurityHeaderSettings, frameAncestors?: readonly string[]): HelmetOptions {
  const framable = frameAncestors !== undefined;
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(s, frameAncestors) },
    frameguard: framable ? false : { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Thumbnails and media are read by a client on a sibling origin (ALLOWED_ORIGINS) too.
    crossOriginResourcePolicy: { policy: 'same-site' },
    // Sent only over https, below: on plain http it would be meaningless, and wrong behind a misconfigured proxy.
    hsts: false,
  };
}

/**
 * The headers helmet sets for these options. They do not depend on the request, so they are worked
 * out once here instead of helmet building its middleware again for every request (a tenth of the
 * work of serving a cached answer).
 */
export function securityHeaderSet(options: HelmetOptions): SecurityHeaderSet {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => void headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return [...headers];
}

/**
 * The API's JSON answers are never rendered as pages, so their policy is the strictest and shortest
 * there is: nothing may load from them and nothing may frame them. The headers that only concern
 * documents (opener and agent-cluster isolation, DNS prefetching, old browsers' download and XSS
 * filters, Flash policy files) are left out: on the cheapest answers, a cached page, the bytes of
 * the headers cost as much as the body.
 */
const API_HEADERS = securityHeaderSet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginResourcePolicy: { policy: 'same-site' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  dnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  hsts: false,
});

/**
 * Security headers on every answer: the policy above (the API's own for its JSON answers), nosniff, frame-ancestors 'none' and
 * X-Frame-Options DENY (unless a route opts in with app.frameableBy), a Referrer-Policy that never
 * sends paths to other sites, and HSTS when the request came over https (directly, or through a
 * trusted proxy's X-Forwarded-Proto).
 */
export function registerSecurityHeaders(app: FastifyInstance, settings: SecurityHeaderSettings) {
  const siteHeaders = securityHeaderSet(helmetOptions(settings));
  const apiPath = settings.apiPrefix ? `${settings.apiPrefix}/` : null;
  app.decorate('frameableBy', (ancestors: readonly string[]) => ({ config: { securityHeaders: securityHeaderSet(helmetOptions(settings, ancestors)) } }));
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.securityHeaders ?? (apiPath !== null && request.url.startsWith(apiPath) ? API_HEADERS : siteHeaders);
    for (const [name, value] of own) reply.header(name, value);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Public media and images may be shown by any site, and a CDN in front of /media/ keeps this
    // header: same-site would break a CDN on another domain.
    if (request.url.startsWith('/media/') || request.url.startsWith('/static/')) reply.header('cross-origin-resource-policy', 'cross-origin');
    done();
  });
}
