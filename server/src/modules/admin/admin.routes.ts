import { AdminStats, AdminUser, AdminUserPage, AdminUserPatch, AdminUsersQuery, envelope as envelopeSchema, IdParams, pageInfo } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { currentUser, requireAdmin } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { ModerationService } from '../moderation/moderation.service.js';
import { AdminUsersService } from './admin-users.service.js';

const tags = ['admin'];

export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const users = new AdminUsersService(ctx, new ModerationService(ctx));

  app.get('/admin/users', {
    preHandler: requireAdmin,
    schema: { tags, summary: 'Accounts with role, state, quotas and storage used (admins)', querystring: AdminUsersQuery, response: { 200: envelopeSchema(AdminUserPage) } },
  }, async (request) => {
    const { total, users: list } = await users.list(request.query);
    return envelope({ ...pageInfo(total, request.query.pageNumber, request.query.pageSize), users: list }, 'Users fetched');
  });

  app.patch('/admin/users/:id', {
    preHandler: requireAdmin,
    schema: { tags, summary: "Change an account's role, ban, approval or quotas (admins); each change is in the audit log", params: IdParams, body: AdminUserPatch, response: { 200: envelopeSchema(AdminUser) } },
  }, async (request) => envelope(await users.update(currentUser(request), request.params.id, request.body), 'User updated'));

  app.get('/admin/stats', {
    preHandler: requireAdmin,
    schema: { tags, summary: 'Site totals: accounts, videos by state, storage, open reports (admins)', response: { 200: envelopeSchema(AdminStats) } },
  }, async () => envelope(await users.stats(), 'Stats fetched'));
};
