import {
  AdminJob,
  AdminJobs,
  AdminStats,
  AdminUser,
  AdminVideo,
  AdminVideoPage,
  AdminVideosQuery,
  JobIdParams,
  AdminUserPage,
  AdminUserPatch,
  AdminUsersQuery,
  envelope as envelopeSchema,
  IdParams,
  pageInfo,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireAdmin } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { AdminMediaService } from './admin-media.service.js';
import type { AdminUsersService } from './admin-users.service.js';

const tags = ['admin'];

export const adminRoutes: FastifyPluginAsyncZod<{ users: AdminUsersService; media: AdminMediaService }> = async (app, { users, media }) => {
  app.get(
    '/admin/users',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Accounts with role, state, quotas and storage used (admins)',
        querystring: AdminUsersQuery,
        response: { 200: envelopeSchema(AdminUserPage) },
      },
    },
    async (request) => {
      const { total, users: list } = await users.list(request.query);
      return envelope({ ...pageInfo(total, request.query.pageNumber, request.query.pageSize), users: list }, 'Users fetched');
    },
  );

  app.patch(
    '/admin/users/:id',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: "Change an account's role, ban, approval or quotas (admins); each change is in the audit log",
        params: IdParams,
        body: AdminUserPatch,
        response: { 200: envelopeSchema(AdminUser) },
      },
    },
    async (request) => envelope(await users.update(currentUser(request), request.params.id, request.body), 'User updated'),
  );

  app.delete(
    '/admin/users/:id/2fa',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary:
          "Turn an account's two-factor sign-in off and sign it out everywhere (admins), for someone who lost their authenticator and recovery codes; in the audit log. 400 when it is not on",
        params: IdParams,
        response: { 200: envelopeSchema(AdminUser) },
      },
    },
    async (request) =>
      envelope(await users.turnOffTwoFactor(currentUser(request), request.params.id), 'Two-factor authentication is off; they are signed out everywhere'),
  );

  app.get(
    '/admin/stats',
    {
      preHandler: requireAdmin,
      schema: { tags, summary: 'Site totals: accounts, videos by state, storage, open reports (admins)', response: { 200: envelopeSchema(AdminStats) } },
    },
    async () => envelope(await users.stats(), 'Stats fetched'),
  );

  app.get(
    '/admin/videos',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Videos in every state, with owner, size and why processing failed; by status and title (admins)',
        querystring: AdminVideosQuery,
        response: { 200: envelopeSchema(AdminVideoPage) },
      },
    },
    async (request) => {
      const { total, videos } = await media.listVideos(request.query);
      return envelope({ ...pageInfo(total, request.query.pageNumber, request.query.pageSize), videos }, 'Videos fetched');
    },
  );

  app.post(
    '/admin/videos/:id/retry',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Process a failed video again from its kept upload (admins); 409 unless it failed',
        params: IdParams,
        response: { 200: envelopeSchema(AdminVideo) },
      },
    },
    async (request) => envelope(await media.retryVideo(currentUser(request), request.params.id), 'Processing queued again'),
  );

  app.get(
    '/admin/jobs',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'The job queue: depth per lane, running jobs and jobs that failed for good (admins)',
        response: { 200: envelopeSchema(AdminJobs) },
      },
    },
    async () => envelope(await media.jobs(), 'Jobs fetched'),
  );

  app.post(
    '/admin/jobs/:id/retry',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Send a failed job back to its lane with fresh attempts (admins); 409 unless it failed',
        params: JobIdParams,
        response: { 200: envelopeSchema(AdminJob) },
      },
    },
    async (request) => envelope(await media.retryJob(currentUser(request), request.params.id), 'Job queued again'),
  );
};
