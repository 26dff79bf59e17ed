import {
  envelope as envelopeSchema,
  LinkedIdentityList,
  LinkedIdentityParams,
  SignInCallbackQuery,
  SignInProviderParams,
  StartSignInQuery,
} from '@reelhouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { setAuthCookies } from '../../http/cookies.js';
import { envelope } from '../../http/envelope.js';
import { AppError, unauthorized } from '../../http/errors.js';
import { requestLanguage } from '../../http/request-language.js';
import { siteOrigin } from '../../http/site-origin.js';
import type { Config } from '../../config.js';
import type { SessionService } from '../users/session.service.js';
import type { SingleSignOnService } from './single-sign-on.service.js';

/** Holds the state of this browser's sign-in under way: the provider's return must carry the same. */
const STATE_COOKIE = 'ssoState';
const STATE_COOKIE_PATH = '/api/v1/auth/oidc';
const tags = ['single sign-on'];

/** A browser following links (as opposed to an API client): shown its errors on a page, not as JSON. */
const isBrowser = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/** A path of the web client with the message for it to show. */
function withMessage(path: string, message: string): string {
  const url = new URL(path, 'http://site.invalid');
  url.searchParams.set('ssoError', message);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Single sign-on with OpenID Connect providers, and the provider accounts linked to an account. */
export const singleSignOnRoutes: FastifyPluginAsyncZod<{ singleSignOn: SingleSignOnService; sessions: SessionService; config: Config }> = async (
  app,
  { singleSignOn, sessions, config },
) => {
  const authLimit = { rateLimit: { max: config.rateLimits.authPerMinute, timeWindow: '1 minute' } };
  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    // Lax: the cookie comes along when the provider sends the browser back (a top-level GET).
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    path: STATE_COOKIE_PATH,
  });

  /** Browsers go back to a page that shows the error; API clients get the envelope. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, error: AppError, page: string) => {
    if (!isBrowser(request)) throw error;
    return reply.redirect(withMessage(page, error.message), 303);
  };

  app.get(
    '/auth/oidc/:name',
    {
      config: authLimit,
      schema: {
        tags,
        summary:
          'Start signing in (or up) with a provider: redirects to it. With link=true, signed in, links the provider to this account instead. Browsers are sent back to returnTo (a path) afterwards',
        params: SignInProviderParams,
        querystring: StartSignInQuery,
        response: { 302: z.null().describe('To the provider') },
      },
    },
    async (request, reply) => {
      const linking = request.query.link === 'true';
      try {
        if (linking && !request.user) throw unauthorized('Sign in first to link an account');
        const started = await singleSignOn.start(request.params.name, {
          siteOrigin: siteOrigin(config.publicUrl, request),
          returnTo: request.query.returnTo,
          linkUserId: linking ? request.user!.id : null,
        });
        reply.setCookie(STATE_COOKIE, started.state, { ...cookieOptions(request), maxAge: 10 * 60 });
        return reply.redirect(started.redirectTo, 302);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return refuse(request, reply, err, linking ? (request.query.returnTo ?? '/') : '/login');
      }
    },
  );

  app.get(
    '/auth/oidc/:name/callback',
    {
      config: authLimit,
      schema: {
        tags,
        summary:
          "Where the provider sends the browser back: checks state, PKCE and nonce, signs in (the usual cookies) or links, and redirects to the page the sign-in started from. Errors go to the sign-in page's ssoError for browsers",
        params: SignInProviderParams,
        querystring: SignInCallbackQuery,
        response: { 302: z.null().describe('Signed in or linked: to the page it started from') },
      },
    },
    async (request, reply) => {
      const origin = siteOrigin(config.publicUrl, request);
      const outcome = await singleSignOn.finish(request.params.name, {
        callbackUrl: new URL(request.url, origin),
        state: request.query.state,
        cookieState: request.cookies[STATE_COOKIE],
        siteOrigin: origin,
        language: requestLanguage(request),
      });
      reply.clearCookie(STATE_COOKIE, cookieOptions(request));
      if (outcome.kind === 'failed') {
        return refuse(request, reply, outcome.error, outcome.linking && outcome.returnTo ? outcome.returnTo : '/login');
      }
      if (outcome.kind === 'signed-in') {
        const tokens = await sessions.open(outcome.user.id, { userAgent: request.headers['user-agent'] ?? null, ip: request.ip });
        setAuthCookies(request, reply, tokens);
      }
      return reply.redirect(outcome.returnTo, 302);
    },
  );

  app.get(
    '/users/identities',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'The provider accounts linked to this account, newest first', response: { 200: envelopeSchema(LinkedIdentityList) } },
    },
    async (request) => envelope(await singleSignOn.list(currentUser(request).id), 'Linked accounts fetched'),
  );

  app.delete(
    '/users/identities/:identityId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Unlink a provider account; another account's or a missing one is 404, the only way into the account 409",
        params: LinkedIdentityParams,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await singleSignOn.unlink(currentUser(request).id, request.params.identityId);
      return envelope({}, 'Account unlinked');
    },
  );
};
