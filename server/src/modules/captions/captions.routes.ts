import { Caption, CaptionParams, envelope as envelopeSchema, IdParams, MAX_CAPTION_BYTES } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { readMultipart } from '../../http/multipart.js';
import type { CaptionsService } from './captions.service.js';

const tags = ['captions'];

export const captionsRoutes: FastifyPluginAsyncZod<{ captions: CaptionsService; config: Config; tmpDir: string }> = async (
  app,
  { captions, config, tmpDir },
) => {
  const uploadLimit = { rateLimit: { max: config.rateLimits.uploadsPerHour, timeWindow: '1 hour' } };

  app.post(
    '/videos/:id/captions',
    {
      preHandler: requireUser,
      config: uploadLimit,
      schema: {
        tags,
        summary:
          'Add a caption track (multipart: language, a BCP 47 tag; label; file, WebVTT or SRT up to 1 MiB); replaces the one in the same language; owner and admins only',
        params: IdParams,
        response: { 201: envelopeSchema(Caption) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const form = await readMultipart(request, tmpDir, { files: { file: { maxBytes: MAX_CAPTION_BYTES } }, fields: ['language', 'label'] });
      try {
        const caption = await captions.upload(request.params.id, user, form.fields, form.files.file);
        return reply.status(201).send(envelope(caption, 'Caption added', 201));
      } finally {
        await form.cleanup();
      }
    },
  );

  app.delete(
    '/videos/:id/captions/:captionId',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'Remove a caption track; owner and admins only', params: CaptionParams, response: { 200: envelopeSchema(z.object({})) } },
    },
    async (request) => {
      await captions.remove(request.params.id, request.params.captionId, currentUser(request));
      return envelope({}, 'Caption deleted');
    },
  );
};
