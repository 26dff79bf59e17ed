import {
  envelope as envelopeSchema,
  NewRecoveryCodesBody,
  RecoveryCodes,
  TwoFactorDisableBody,
  TwoFactorEnableBody,
  TwoFactorSetup,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { TwoFactorService } from './two-factor.service.js';

const tags = ['users'];

/** Two-factor sign-in (TOTP): the account's own settings. The check at sign-in is in POST /users/login. */
export const twoFactorRoutes: FastifyPluginAsyncZod<{ twoFactor: TwoFactorService; authPerMinute: number }> = async (app, { twoFactor, authPerMinute }) => {
  const authLimit = { rateLimit: { max: authPerMinute, timeWindow: '1 minute' } };

  app.post(
    '/users/2fa/setup',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: {
        tags,
        summary:
          'A new secret for an authenticator app (as text, an otpauth:// URL and a QR code), replacing any earlier one not yet confirmed. Not in use until POST /users/2fa/enable; 409 when two-factor sign-in is already on',
        response: { 200: envelopeSchema(TwoFactorSetup) },
      },
    },
    async (request) => envelope(await twoFactor.setup(currentUser(request).id), 'Scan the QR code, then confirm with a code'),
  );

  app.post(
    '/users/2fa/enable',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: {
        tags,
        summary: 'Turn two-factor sign-in on with a code for the secret just set up; answers ten single-use recovery codes, shown this once',
        body: TwoFactorEnableBody,
        response: { 200: envelopeSchema(RecoveryCodes) },
      },
    },
    async (request) => envelope(await twoFactor.enable(currentUser(request).id, request.body.code), 'Two-factor authentication is on'),
  );

  app.post(
    '/users/2fa/disable',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off: the password and a code from the app or a recovery code',
        body: TwoFactorDisableBody,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await twoFactor.disable(currentUser(request).id, request.body.password, request.body.code);
      return envelope({}, 'Two-factor authentication is off');
    },
  );

  app.post(
    '/users/2fa/recovery-codes',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: {
        tags,
        summary:
          'Ten new recovery codes in place of the old ones, which stop working: the password and a code from the app or a recovery code. Shown this once; 400 when two-factor sign-in is off',
        body: NewRecoveryCodesBody,
        response: { 200: envelopeSchema(RecoveryCodes) },
      },
    },
    async (request) =>
      envelope(
        await twoFactor.newRecoveryCodes(currentUser(request).id, request.body.password, request.body.code),
        'New recovery codes: the old ones no longer work',
      ),
  );
};
