import { DeviceList, envelope as envelopeSchema, SessionParams, SignedOutDevices } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { SessionService } from './session.service.js';

const tags = ['users'];

/** "Your devices": the account's signed-in sessions, and signing them out from elsewhere. */
export const devicesRoutes: FastifyPluginAsyncZod<{ sessions: SessionService }> = async (app, { sessions }) => {
  app.get(
    '/users/sessions',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "The account's signed-in devices (live sessions), most recently active first; `current` marks the one asking. The demo account sees only its own device",
        response: { 200: envelopeSchema(DeviceList) },
      },
    },
    async (request) => envelope(await sessions.devices(currentUser(request)), 'Sessions fetched'),
  );

  app.delete(
    '/users/sessions/:sessionId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Sign one of your other devices out at once. Another account's session or an ended one is 404; the device asking is 400 (use POST /users/logout); the demo account is 403",
        params: SessionParams,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await sessions.signOutDevice(currentUser(request), request.params.sessionId);
      return envelope({}, 'Session signed out');
    },
  );

  app.delete(
    '/users/sessions',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Sign out every device of the account but the one asking; answers how many were signed out. The demo account is 403',
        response: { 200: envelopeSchema(SignedOutDevices) },
      },
    },
    async (request) => envelope(await sessions.signOutOtherDevices(currentUser(request)), 'Other sessions signed out'),
  );
};
