import { Channel, envelope as envelopeSchema, FederationLookupQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { UsersService } from '../users/users.service.js';
import type { RemoteChannels } from './remote-channels.js';

const tags = ['federation'];

/** Finding a channel of another server by its handle (served only when FEDERATION is on). */
export const remoteChannelsRoutes: FastifyPluginAsyncZod<{ remote: RemoteChannels; users: UsersService; config: Config }> = async (
  app,
  { remote, users, config },
) => {
  app.get(
    '/federation/lookup',
    {
      preHandler: requireUser,
      // Each lookup makes this site fetch from another: as scarce as a sign-in attempt.
      config: { rateLimit: { max: config.rateLimits.authPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          'A channel of another server by its handle (@channel@video.example.com) or address, as a channel of this site with remote: true, its page url and its recent videos kept here (signed in). A handle of this site answers its own channel; 404 when no such channel answers; 422 when its server is blocked',
        querystring: FederationLookupQuery,
        response: { 200: envelopeSchema(Channel) },
      },
    },
    async (request) => {
      const viewer = currentUser(request);
      const username = await remote.lookup(request.query.handle);
      return envelope(await users.channel(username, viewer.id), 'Channel fetched');
    },
  );
};
