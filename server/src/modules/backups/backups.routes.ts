import { AdminBackups, envelope as envelopeSchema } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireAdmin } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { BackupsService } from './backups.service.js';

const tags = ['admin'];

export const backupsRoutes: FastifyPluginAsyncZod<{ backups: BackupsService }> = async (app, { backups }) => {
  app.get(
    '/admin/backups',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Backups: the schedule, the last good one, and the latest runs with size, time taken and errors (admins)',
        response: { 200: envelopeSchema(AdminBackups) },
      },
    },
    async () => envelope(await backups.overview(), 'Backups fetched'),
  );

  app.post(
    '/admin/backups',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Take a backup now, in the process that runs jobs (admins); 409 while one is running. Answers the backups as they stand',
        response: { 202: envelopeSchema(AdminBackups) },
      },
    },
    async (request, reply) => {
      await backups.startNow(currentUser(request));
      return reply.status(202).send(envelope(await backups.overview(), 'Backup started', 202));
    },
  );
};
