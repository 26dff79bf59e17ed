import {
  AppealBody,
  AuditPage,
  AuditQuery,
  envelope as envelopeSchema,
  IdParams,
  ModerationBody,
  pageInfo,
  Report,
  ReportBody,
  ReportGroup,
  ReportQueueQuery,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireStaff, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { AuditLogService } from '../audit/audit-log.service.js';
import type { ModerationService } from './moderation.service.js';

export const moderationRoutes: FastifyPluginAsyncZod<{ moderation: ModerationService; audit: AuditLogService }> = async (app, { moderation, audit }) => {
  app.post(
    '/reports',
    {
      preHandler: requireUser,
      schema: {
        tags: ['reports'],
        summary: 'Report a video, comment or channel (one open report per person and item)',
        body: ReportBody,
        response: { 201: envelopeSchema(Report) },
      },
    },
    async (request, reply) => reply.status(201).send(envelope(await moderation.report(currentUser(request), request.body), 'Report received', 201)),
  );

  app.post(
    '/videos/:id/appeal',
    {
      preHandler: requireUser,
      schema: {
        tags: ['reports'],
        summary: "Appeal a takedown of one's own video (once per takedown)",
        params: IdParams,
        body: AppealBody,
        response: { 201: envelopeSchema(Report) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(envelope(await moderation.appeal(currentUser(request), request.params.id, request.body.text), 'Appeal sent', 201)),
  );

  app.get(
    '/admin/reports',
    {
      preHandler: requireStaff,
      schema: {
        tags: ['admin'],
        summary: 'The moderation queue: reports grouped by item (moderators and admins)',
        querystring: ReportQueueQuery,
        response: { 200: envelopeSchema(z.object({ groups: z.array(ReportGroup) })) },
      },
    },
    async (request) => envelope({ groups: await moderation.queue(request.query.state) }, 'Reports fetched'),
  );

  app.patch(
    '/admin/reports/:id',
    {
      preHandler: requireStaff,
      schema: {
        tags: ['admin'],
        summary: "Act on a report's item: dismiss, hide (note is the reason the owner sees), restore, delete, or ban its owner",
        params: IdParams,
        body: ModerationBody,
        response: { 200: envelopeSchema(z.object({ action: z.string(), targetType: z.string(), targetId: z.string() })) },
      },
    },
    async (request) => envelope(await moderation.act(currentUser(request), request.params.id, request.body), 'Report handled'),
  );

  app.get(
    '/admin/audit-log',
    {
      preHandler: requireStaff,
      schema: {
        tags: ['admin'],
        summary: 'Every moderator and admin action, newest first (moderators and admins)',
        querystring: AuditQuery,
        response: { 200: envelopeSchema(AuditPage) },
      },
    },
    async (request) => {
      const { pageNumber, pageSize } = request.query;
      const { total, entries } = await audit.list({ pageNumber, pageSize });
      return envelope({ ...pageInfo(total, pageNumber, pageSize), entries }, 'Audit log fetched');
    },
  );
};
