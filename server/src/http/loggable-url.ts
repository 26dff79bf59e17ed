/**
 * Query parameters that carry a secret: the links mailed for password resets and address checks
 * (`token`), and what an OpenID provider sends back (`code`, `state`, tokens).
 */
const SECRET_PARAMS = new Set(['token', 'code', 'state', 'id_token', 'access_token', 'refresh_token', 'session_state']);

/** A request's URL as the request log writes it: the values of secret-bearing query parameters replaced. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is kept as it is; only known names are scrubbed.
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}
