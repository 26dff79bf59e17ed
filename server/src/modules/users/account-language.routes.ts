import { AccountLanguageBody, envelope as envelopeSchema } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { AccountLanguageService } from './account-language.service.js';

export const accountLanguageRoutes: FastifyPluginAsyncZod<{ accountLanguage: AccountLanguageService }> = async (app, { accountLanguage }) => {
  app.patch(
    '/users/language',
    {
      preHandler: requireUser,
      schema: {
        tags: ['users'],
        summary: "Sets the account's language (its mails come in it), or forgets it with null",
        body: AccountLanguageBody,
        response: { 200: envelopeSchema(AccountLanguageBody) },
      },
    },
    async (request) => envelope(await accountLanguage.set(currentUser(request).id, request.body.language), 'Language updated'),
  );
};
