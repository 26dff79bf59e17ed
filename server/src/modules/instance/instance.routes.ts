import { envelope as envelopeSchema, InstanceSettings, InstanceSettingsPatch, PublicInstance } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireAdmin } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { sameForViewers } from '../../http/shared-answers.js';
import type { InstanceService } from './instance.service.js';

export const instanceRoutes: FastifyPluginAsyncZod<{ instance: InstanceService }> = async (app, { instance }) => {
  app.get(
    '/instance',
    {
      config: sameForViewers,
      schema: { tags: ['instance'], summary: 'The site: name, sign-up mode and limits (no sign-in needed)', response: { 200: envelopeSchema(PublicInstance) } },
    },
    async () => envelope(await instance.publicInfo(), 'Instance fetched'),
  );

  app.get(
    '/admin/settings',
    {
      preHandler: requireAdmin,
      schema: { tags: ['admin'], summary: 'The site settings (admins)', response: { 200: envelopeSchema(InstanceSettings) } },
    },
    async () => envelope(await instance.settings(), 'Settings fetched'),
  );

  app.patch(
    '/admin/settings',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Change site settings (admins); each change is in the audit log',
        body: InstanceSettingsPatch,
        response: { 200: envelopeSchema(InstanceSettings) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope(await instance.update({ id: user.id, username: user.username }, request.body), 'Settings updated');
    },
  );
};
