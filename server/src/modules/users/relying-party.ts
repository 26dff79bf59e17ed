/** Where passkeys are made and used: the WebAuthn relying party's id and the origins it accepts. */
export interface RelyingParty {
  /** The host name passkeys are bound to ("video.example.org"). */
  id: string;
  /** The origins whose pages may make and use them. */
  origins: string[];
}

/**
 * The site's own host: PUBLIC_URL's when set, else the one the request was sent to (Host, or
 * X-Forwarded-Host and -Proto under TRUST_PROXY, as Fastify reads them). A web client served from
 * another origin in ALLOWED_ORIGINS may use passkeys only if it is on the same host or one of its
 * subdomains: browsers let a page claim its own host or a parent of it, nothing else.
 */
export function relyingParty(
  site: { publicUrl: string | null; allowedOrigins: readonly string[] },
  request: { protocol: string; host: string; hostname: string },
): RelyingParty {
  const own = site.publicUrl ? new URL(site.publicUrl) : new URL(`${request.protocol}://${request.host}`);
  const id = own.hostname.replace(/^\[|\]$/g, '');
  const others = site.allowedOrigins.filter((origin) => {
    const host = new URL(origin).hostname;
    return host === id || host.endsWith(`.${id}`);
  });
  return { id, origins: [...new Set([own.origin, ...others])] };
}
