import { envelope as envelopeSchema, ForgotPasswordBody, ResetPasswordBody, User, VerifyEmailBody } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { hourlyLimitBy } from '../../http/rate-limits.js';
import { requestLanguage } from '../../http/request-language.js';
import { siteOrigin } from '../../http/site-origin.js';
import type { Config } from '../../config.js';
import type { AccountEmailService } from './account-email.service.js';

/** Reset mails one address may be sent in an hour, whoever asks; and address checks one account may ask for. */
const MAILS_PER_ADDRESS_PER_HOUR = 5;
const CHECKS_PER_ACCOUNT_PER_HOUR = 5;
const tags = ['users'];

export const accountEmailRoutes: FastifyPluginAsyncZod<{ accountEmail: AccountEmailService; config: Config }> = async (app, { accountEmail, config }) => {
  const authLimit = { rateLimit: { max: config.rateLimits.authPerMinute, timeWindow: '1 minute' } };
  const emailKey = (request: FastifyRequest) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? email.trim().toLowerCase() : '';
  };

  app.post(
    '/users/forgot-password',
    {
      config: authLimit,
      preHandler: hourlyLimitBy(app, MAILS_PER_ADDRESS_PER_HOUR, 'forgot-password', emailKey),
      schema: {
        tags,
        summary: 'Mails a single-use link to reset the password; the same answer whether or not an account uses the address',
        body: ForgotPasswordBody,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await accountEmail.forgotPassword(request.body.email, siteOrigin(config.publicUrl, request), requestLanguage(request));
      return envelope({}, 'If an account uses that address, a link to reset its password is on its way');
    },
  );

  app.post(
    '/users/reset-password',
    {
      config: authLimit,
      schema: {
        tags,
        summary: 'Sets a new password with the token of a reset link; every device of the account is signed out',
        body: ResetPasswordBody,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await accountEmail.resetPassword(request.body.token, request.body.newPassword);
      return envelope({}, 'Password changed: sign in with the new one');
    },
  );

  app.post(
    '/users/verify-email',
    {
      config: authLimit,
      schema: { tags, summary: 'Confirms an email address with the token of a mailed link', body: VerifyEmailBody, response: { 200: envelopeSchema(User) } },
    },
    async (request) => envelope(await accountEmail.verifyEmail(request.body.token), 'Email address confirmed'),
  );

  app.post(
    '/users/resend-verification',
    {
      preHandler: [requireUser, hourlyLimitBy(app, CHECKS_PER_ACCOUNT_PER_HOUR, 'resend-verification', (request) => request.user?.id ?? '')],
      schema: { tags, summary: 'Mails the signed-in account a new link to confirm its address', response: { 200: envelopeSchema(z.object({})) } },
    },
    async (request) => {
      await accountEmail.resendVerification(currentUser(request).id, siteOrigin(config.publicUrl, request), requestLanguage(request));
      return envelope({}, 'A new confirmation link is on its way');
    },
  );
};
