import type { InstanceSettings } from '@reelhouse/contract';
import {
  ChangePasswordBody,
  Channel,
  envelope as envelopeSchema,
  LoginBody,
  LoginResult,
  RegisterFields,
  ReturnTokensHeaders,
  TwoFactorRequired,
  UpdateAccountBody,
  User,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, REFRESH_COOKIE, requireUser } from '../../http/auth.js';
import { clearAuthCookies, setAuthCookies, tokensInAnswer } from '../../http/cookies.js';
import { envelope } from '../../http/envelope.js';
import { forbidden } from '../../http/errors.js';
import { readMultipart } from '../../http/multipart.js';
import { sharedWithViewers } from '../../http/shared-answers.js';
import { perAccountSignInLimit } from '../../http/rate-limits.js';
import { parseWith } from '../../http/validate.js';
import { requestLanguage } from '../../http/request-language.js';
import { siteOrigin } from '../../http/site-origin.js';
import type { Config } from '../../config.js';
import type { SessionService } from './session.service.js';
import type { TwoFactorService } from './two-factor.service.js';
import type { UsersService } from './users.service.js';

const RefreshResult = z.object({ accessToken: z.string().optional(), refreshToken: z.string().optional() });
const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncZod<{
  users: UsersService;
  sessions: SessionService;
  twoFactor: Pick<TwoFactorService, 'signInPasses'>;
  /** The site's settings (the instance module's service), taken by shape so that this module does not depend on it. */
  instance: { settings(): Promise<InstanceSettings> };
  config: Config;
  tmpDir: string;
}> = async (app, { users, sessions, twoFactor, instance, config, tmpDir }) => {
  const authLimit = { rateLimit: { max: config.rateLimits.authPerMinute, timeWindow: '1 minute' } };
  const imageLimit = { maxBytes: config.limits.maxImageBytes };

  app.post(
    '/users/register',
    {
      config: authLimit,
      schema: {
        tags,
        summary: 'Sign up (multipart: username, email, password, fullName, optional avatar and coverImage)',
        response: { 201: envelopeSchema(User) },
      },
    },
    async (request, reply) => {
      // Decided before a byte of the body is read: a closed site stores nothing.
      const { signupMode } = await instance.settings();
      if (signupMode === 'closed') throw forbidden('Sign-ups are closed on this site');
      const form = await readMultipart(request, tmpDir, {
        files: { avatar: imageLimit, coverImage: imageLimit },
        fields: ['username', 'email', 'password', 'fullName'],
      });
      let user;
      try {
        user = await users.register(parseWith(RegisterFields, form.fields), form.files, {
          needsApproval: signupMode === 'approval',
          linkBase: siteOrigin(config.publicUrl, request),
          language: requestLanguage(request),
        });
      } finally {
        // Before answering, so a client that sees the answer never sees the temporary files.
        await form.cleanup();
      }
      const message = user.approvalPending ? 'Account created; an admin must approve it before you can sign in' : 'User registered successfully';
      return reply.status(201).send(envelope(user, message, 201));
    },
  );

  app.post(
    '/users/login',
    {
      config: authLimit,
      // Besides the per-address limit: many addresses guessing one account's password are stopped too.
      preHandler: perAccountSignInLimit(app, config.rateLimits.signInPerAccountPerHour),
      schema: {
        tags,
        summary:
          'Sign in: sets the accessToken and refreshToken cookies; the tokens are in the answer only with X-Return-Tokens: true. For an account with two-factor sign-in on, the right password alone answers { twoFactorRequired: true } and signs nothing in: send it again with code (or recoveryCode)',
        headers: ReturnTokensHeaders,
        body: LoginBody,
        response: { 200: envelopeSchema(z.union([LoginResult, TwoFactorRequired])) },
      },
    },
    async (request, reply) => {
      const row = await users.verifyCredentials(request.body.email, request.body.password);
      if (!(await twoFactor.signInPasses(row.id, request.body)))
        return envelope({ twoFactorRequired: true as const }, 'Enter the code from your authenticator app');
      const tokens = await sessions.open(row.id, { userAgent: request.headers['user-agent'] ?? null, ip: request.ip });
      setAuthCookies(request, reply, tokens);
      return envelope({ user: users.present(row), ...tokensInAnswer(request, tokens) }, 'User logged in successfully');
    },
  );

  app.post(
    '/users/refresh-token',
    {
      // Every open tab refreshes every few minutes: a household or office behind one address needs far
      // more of these than of sign-ins.
      config: { rateLimit: { max: config.rateLimits.refreshPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'New tokens for the refresh token (cookie, or refreshToken in the body); in the answer only with X-Return-Tokens: true',
        headers: ReturnTokensHeaders,
        body: z.object({ refreshToken: z.string().optional() }).nullish(),
        response: { 200: envelopeSchema(RefreshResult) },
      },
    },
    async (request, reply) => {
      try {
        const tokens = await sessions.refresh(request.cookies[REFRESH_COOKIE] ?? request.body?.refreshToken, request.ip);
        setAuthCookies(request, reply, tokens);
        return envelope(tokensInAnswer(request, tokens), 'Access token refreshed');
      } catch (err) {
        clearAuthCookies(request, reply);
        throw err;
      }
    },
  );

  app.post('/users/logout', { schema: { tags, response: { 200: envelopeSchema(z.object({})) } } }, async (request, reply) => {
    if (request.user) await sessions.close(request.user.sessionId);
    clearAuthCookies(request, reply);
    return envelope({}, 'User logged out');
  });

  app.get('/users/user/current', { preHandler: requireUser, schema: { tags, response: { 200: envelopeSchema(User) } } }, async (request) =>
    envelope(await users.current(currentUser(request).id), 'Current user fetched'),
  );

  app.patch(
    '/users/update-account',
    {
      preHandler: requireUser,
      schema: { tags, body: UpdateAccountBody, response: { 200: envelopeSchema(User) } },
    },
    async (request) => {
      const user = currentUser(request);
      const updated = await users.updateAccount(user.id, request.body, {
        linkBase: siteOrigin(config.publicUrl, request),
        language: requestLanguage(request),
      });
      // The username travels with the session.
      sessions.accountChanged(user.id);
      return envelope(updated, 'Account details updated');
    },
  );

  for (const [path, field] of [
    ['/users/change-avatar', 'avatar'],
    ['/users/change-cover-image', 'coverImage'],
  ] as const) {
    app.patch(
      path,
      {
        preHandler: requireUser,
        config: { rateLimit: { max: config.rateLimits.uploadsPerHour, timeWindow: '1 hour' } },
        schema: { tags, summary: `Replace ${field} (multipart: ${field})`, response: { 200: envelopeSchema(User) } },
      },
      async (request) => {
        const form = await readMultipart(request, tmpDir, { files: { [field]: imageLimit }, fields: [] });
        try {
          return envelope(
            await users.changeImage(currentUser(request).id, field, form.files[field]),
            `${field === 'avatar' ? 'Avatar' : 'Cover image'} updated`,
          );
        } finally {
          await form.cleanup();
        }
      },
    );
  }

  app.patch(
    '/users/change-password',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: { tags, body: ChangePasswordBody, response: { 200: envelopeSchema(z.object({})) } },
    },
    async (request) => {
      const user = currentUser(request);
      await users.changePassword(user.id, request.body.oldPassword, request.body.newPassword);
      await sessions.closeOthers(user.id, user.sessionId);
      return envelope({}, 'Password changed successfully');
    },
  );

  app.delete(
    '/users/delete-account',
    { preHandler: requireUser, schema: { tags, response: { 200: envelopeSchema(z.object({})) } } },
    async (request, reply) => {
      const user = currentUser(request);
      await users.deleteAccount(user.id);
      sessions.accountChanged(user.id);
      clearAuthCookies(request, reply);
      return envelope({}, 'Account deleted');
    },
  );

  app.get(
    '/users/channel/:channelName',
    {
      config: sharedWithViewers((channel: Channel, viewer) => users.channelForViewer(channel, viewer.id)),
      schema: { tags, params: z.object({ channelName: z.string().min(1).max(320) }), response: { 200: envelopeSchema(Channel) } },
    },
    async (request) => envelope(await users.channel(request.params.channelName, request.user?.id ?? null), 'Channel fetched'),
  );
};
