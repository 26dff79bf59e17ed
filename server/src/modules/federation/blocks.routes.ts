import { envelope as envelopeSchema, FederationBlock, FederationBlockBody, FederationBlockList, FederationDomainParams } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireAdmin } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { FederationBlocks } from './blocks.js';

const tags = ['admin'];

/** Admins' blocks of remote servers (served only when FEDERATION is on). */
export const federationBlocksRoutes: FastifyPluginAsyncZod<{ blocks: FederationBlocks }> = async (app, { blocks }) => {
  app.get(
    '/admin/federation/blocks',
    {
      preHandler: requireAdmin,
      schema: { tags, summary: 'Blocked remote servers, by domain (admins)', response: { 200: envelopeSchema(FederationBlockList) } },
    },
    async () => envelope({ blocks: await blocks.list() }, 'Blocked domains fetched'),
  );

  app.post(
    '/admin/federation/blocks',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary:
          'Block a remote server and its subdomains (admins): its activities are refused, nothing is sent to it, and its followers and the follows of it are forgotten; in the audit log. 409 when it is blocked already',
        body: FederationBlockBody,
        response: { 201: envelopeSchema(FederationBlock) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const block = await blocks.block({ id: user.id, username: user.username }, request.body.domain);
      return reply.status(201).send(envelope(block, 'Domain blocked', 201));
    },
  );

  app.delete(
    '/admin/federation/blocks/:domain',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Unblock a remote server (admins); in the audit log. 404 when it is not blocked',
        params: FederationDomainParams,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await blocks.unblock({ id: user.id, username: user.username }, request.params.domain);
      return envelope({}, 'Domain unblocked');
    },
  );
};
