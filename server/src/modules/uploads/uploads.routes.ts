import type { IncomingMessage } from 'node:http';
import { envelope as envelopeSchema, UploadIdParams, UploadQuota, VideoDetail } from '@reelhouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { CORS_OPTIONS_ROUTE } from '../../http/cors.js';
import { AppError, badRequest, unsupportedMediaType } from '../../http/errors.js';
import { envelope } from '../../http/envelope.js';
import { readMultipart } from '../../http/multipart.js';
import type { InstanceService } from '../instance/instance.service.js';
import { type AdmittedUpload, createTusServer, tusExtensions } from './tus-server.js';
import type { UploadStore } from './upload-store.js';
import type { UploadsService } from './uploads.service.js';

const tags = ['uploads'];
const TUS_DESCRIPTION =
  'tus 1.0.0 resumable upload protocol (https://tus.io/protocols/resumable-upload); signed-in only. ' +
  'Headers: Tus-Resumable: 1.0.0, Upload-Length, Upload-Offset, Upload-Metadata (filename). HEAD /api/v1/uploads/{id} answers the ' +
  'Upload-Offset to resume from (not listed separately: OpenAPI documents no HEAD bodies). OPTIONS is open to anyone and needs no ' +
  'Tus-Resumable. Errors of these checks use the envelope; ' +
  'protocol errors from the tus server answer in plain text.';

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * The protocol headers every tus request needs, checked here so a malformed request gets the API's
 * envelope like any other refusal; the tus server only ever sees well-formed ones.
 */
function checkTusHeaders(request: FastifyRequest) {
  if (header(request, 'tus-resumable') !== '1.0.0') throw new AppError(412, 'PRECONDITION_FAILED', 'Tus-Resumable: 1.0.0 is required');
  if (request.method !== 'PATCH') return;
  if (header(request, 'content-type') !== 'application/offset+octet-stream') {
    throw unsupportedMediaType('Upload data must be sent as application/offset+octet-stream');
  }
  if (!/^\d{1,16}$/.test(header(request, 'upload-offset') ?? '')) throw badRequest('Upload-Offset must be the byte offset the data starts at');
}

/**
 * /api/v1/uploads: tus discovery (OPTIONS), creation (POST), offset (HEAD), data (PATCH) and
 * termination (DELETE), then POST /uploads/{id}/video to make the finished file a video, and
 * GET /uploads/quota.
 */
export const uploadsRoutes: FastifyPluginAsyncZod<{
  uploads: UploadsService;
  store: UploadStore;
  instance: Pick<InstanceService, 'settings'>;
  config: Config;
  tmpDir: string;
  logger: Logger;
}> = async (app, { uploads, store, config, tmpDir }) => {
  const admitted = new WeakMap<IncomingMessage, AdmittedUpload>();
  const tus = createTusServer({
    path: `${app.prefix}/uploads`,
    store,
    uploads,
    maxBytes: config.limits.maxVideoBytes,
    allowedOrigins: config.allowedOrigins,
    admitted,
  });
  // PATCH bodies stream straight into the tus store: Fastify must leave them unread.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    // Headers hooks have set so far (CORS among them) go out with the tus server's answer.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.setHeader('x-request-id', request.id);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  const tusSchema = (summary: string) => ({ tags, summary, description: TUS_DESCRIPTION });

  // tus discovery: what the server speaks, for anyone (the protocol forbids requiring Tus-Resumable
  // here). The size is the one creation checks against now, so a client learns it before it asks.
  const extensions = tusExtensions(store).join(',');
  const describeServer = async (request: FastifyRequest, reply: FastifyReply, uploadId?: string) => {
    // A CORS preflight asks about the request to come, not the upload: it is never a 404.
    const preflight = request.headers['access-control-request-method'] !== undefined;
    const maxBytes = await uploads.maxUploadBytes(preflight ? undefined : uploadId);
    const headers = { 'tus-resumable': '1.0.0', 'tus-version': '1.0.0', 'tus-extension': extensions, 'tus-max-size': String(maxBytes) };
    return reply.status(204).headers(headers).send();
  };
  const discovery = 'What the server speaks: Tus-Version, Tus-Extension and Tus-Max-Size (tus discovery, open to anyone)';
  app.options('/uploads', { config: CORS_OPTIONS_ROUTE, schema: tusSchema(discovery) }, (request, reply) => describeServer(request, reply));
  app.options('/uploads/:id', { config: CORS_OPTIONS_ROUTE, schema: { ...tusSchema(discovery), params: UploadIdParams } }, (request, reply) =>
    describeServer(request, reply, request.params.id),
  );

  app.post(
    '/uploads',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: config.rateLimits.uploadsPerHour, timeWindow: '1 hour' } },
      schema: tusSchema('Start a resumable upload (tus creation; Upload-Length required, checked against the size limit and quotas)'),
    },
    async (request, reply) => {
      const user = currentUser(request);
      checkTusHeaders(request);
      const { id, size } = await uploads.admit(user, header(request, 'upload-length'), header(request, 'upload-defer-length'));
      admitted.set(request.raw, { id, ownerId: user.id, size });
      await handOver(request, reply);
      // The store refused after the row was written: the row must not hold quota.
      if (reply.raw.statusCode !== 201) await uploads.forget(id);
    },
  );

  app.head(
    '/uploads/:id',
    {
      preHandler: requireUser,
      schema: { ...tusSchema("An upload's offset (Upload-Offset) and length"), params: UploadIdParams },
    },
    async (request, reply) => {
      await uploads.own(request.params.id, currentUser(request));
      checkTusHeaders(request);
      await handOver(request, reply);
    },
  );

  app.patch(
    '/uploads/:id',
    {
      preHandler: requireUser,
      schema: { ...tusSchema('Send bytes at Upload-Offset (Content-Type: application/offset+octet-stream)'), params: UploadIdParams },
    },
    async (request, reply) => {
      await uploads.ownOpen(request.params.id, currentUser(request));
      checkTusHeaders(request);
      await handOver(request, reply);
    },
  );

  app.delete(
    '/uploads/:id',
    {
      preHandler: requireUser,
      schema: { ...tusSchema('Terminate an upload: its bytes are removed'), params: UploadIdParams },
    },
    async (request, reply) => {
      const user = currentUser(request);
      checkTusHeaders(request);
      await uploads.terminate(request.params.id, user);
      return reply.status(204).header('tus-resumable', '1.0.0').send();
    },
  );

  app.get(
    '/uploads/quota',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The caller's storage quotas, what they use, and the upload size limit (-1: unlimited)",
        response: { 200: envelopeSchema(UploadQuota) },
      },
    },
    async (request) => envelope(await uploads.quota(currentUser(request)), 'Upload quota fetched'),
  );

  app.post(
    '/uploads/:id/video',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Make a finished upload a video (multipart: title, description; thumbnail image, or thumbnailTime in seconds to cut that frame; optional visibility (default public) and publishAt (private until then)), with the checks of POST /videos/',
        params: UploadIdParams,
        response: { 201: envelopeSchema(VideoDetail) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await uploads.own(request.params.id, user);
      const form = await readMultipart(request, tmpDir, {
        files: { thumbnail: { maxBytes: config.limits.maxImageBytes } },
        fields: ['title', 'description', 'visibility', 'publishAt', 'thumbnailTime'],
      });
      let video;
      try {
        video = await uploads.createVideo(request.params.id, user, form.fields, form.files.thumbnail);
      } finally {
        await form.cleanup();
      }
      return reply.status(201).send(envelope(video, 'Video uploaded successfully', 201));
    },
  );
};
