import { loggableUrl } from './http/loggable-url.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { envelope as envelopeSchema, type Language } from '@reelhouse/contract';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from './app-context.js';
import { type AccessTokenVerifier, authPlugin } from './http/auth.js';
import websocket from '@fastify/websocket';
import { registerCors } from './http/cors.js';
import { registerCrossSiteDefence } from './http/cross-site.js';
import { registerRateLimits } from './http/rate-limits.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { envelope } from './http/envelope.js';
import { requestLanguage } from './http/request-language.js';
import { registerErrorHandler, shortPath } from './http/error-handler.js';
import { mediaRoutes } from './http/media-route.js';
import { recordRoutes } from './http/route-table.js';
import { clientErrorHandler, frameworkErrors, MAX_URL_LENGTH, registerUrlLengthGuard } from './http/request-guards.js';
import { type PageMeta, withHead } from './modules/previews/page-head.js';
import { siteOrigin } from './modules/previews/site-urls.js';
import { registerFairTurns } from './http/fair-turns.js';
import { registerAnswerCache } from './http/answer-cache.js';
import { FrontDoor } from './http/front-door.js';
import { requestIdFor } from './http/request-identity.js';
import { proxyTrust } from './proxy-trust.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS_DIR = path.resolve(here, '../assets');
export const API_PREFIX = '/api/v1';
/** Answered ahead of every queued request, from a database connection of its own. */
const HEALTHCHECK_URL = `${API_PREFIX}/healthcheck`;

/** What the composition root hands the HTTP application: its routes and the few services the frame itself asks. */
export interface AppParts {
  /** Every API module's routes, mounted under /api/v1. */
  api: (api: FastifyInstance) => Promise<void>;
  /** Routes outside the versioned API (feeds: addresses given to feed readers). */
  site: (app: FastifyInstance) => Promise<void>;
  /** A page's title and link-preview tags, or null for a page without a preview. */
  /** language: what the request's Accept-Language asks for, for the words the page's tags add. */
  pageMeta: (pagePath: string, origin: string, language: Language | null) => Promise<PageMeta | null>;
  verifySession: AccessTokenVerifier;
  /** Whether the database answers, for the healthcheck. */
  databaseReachable: () => Promise<boolean>;
  /** Whether the storage takes files, for the healthcheck: an answer at most a few seconds old (lib/kept-check.ts). */
  storageReachable: () => Promise<boolean>;
}

/** Builds the HTTP application around an already-built context and its parts. Starting jobs is the caller's business. */
export async function buildApp(ctx: AppContext, parts: AppParts): Promise<FastifyInstance> {
  const { config } = ctx;
  const frontDoor = new FrontDoor();
  // One rule for every reader of a caller's address, scheme and host: Fastify and the early answers.
  const trust = proxyTrust(config.trustProxy);
  if (config.trustProxy.kind === 'all') {
    ctx.logger.warn(
      'TRUST_PROXY=true trusts every hop: a client can choose its own address (X-Forwarded-For) and so its rate limits; set TRUST_PROXY=1 or the proxy address',
    );
  }
  if (config.email && !config.publicUrl) {
    ctx.logger.warn('SMTP_URL is set without PUBLIC_URL: mailed links start with whatever address each request was sent to; set PUBLIC_URL');
  }
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: trust,
    bodyLimit: 1024 * 1024,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // One line per request (below) instead of Fastify's two, each serialising the request again.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler,
    frameworkErrors,
    // No limit on a whole request (a 4 GiB upload takes long), but a silent connection is closed:
    // its half-read body fails, and the upload's temporary file goes with it.
    connectionTimeout: config.idleTimeoutMs,
    // Long enough that an over-long id reaches its route and gets the route's own 400.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    serverFactory: frontDoor.serverFactory,
  }).withTypeProvider<ZodTypeProvider>();
  recordRoutes(app);
  // First of the onRequest hooks: a request waiting its turn has cost nothing yet.
  registerFairTurns(app, { exempt: (url) => url === HEALTHCHECK_URL || url.startsWith(`${HEALTHCHECK_URL}?`) });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  if (ctx.logger.isLevelEnabled('info')) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          req: { method: request.method, url: loggableUrl(request.url) },
          res: { statusCode: reply.statusCode },
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
      done();
    });
  }

  registerErrorHandler(app);
  registerUrlLengthGuard(app);
  registerSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    mediaBaseUrl: config.storage.publicBaseUrl,
    indexHtml: readIndexHtml(config.webDist),
    apiPrefix: API_PREFIX,
    remoteMedia: config.federation.enabled ? { plainHttp: config.federation.allowPrivateAddresses } : null,
  });
  await registerCors(app, config.allowedOrigins);
  await registerRateLimits(app, { generalPerMinute: config.rateLimits.generalPerMinute, redisUrl: config.redisUrl });
  // Here, so that a kept answer gets the headers and limits above and skips the hooks below.
  if (config.answerCache.enabled) {
    const early = registerAnswerCache(app, ctx.answers, { trust, logRequests: ctx.logger.isLevelEnabled('info') });
    frontDoor.answerEarlyWith(early.respond);
    app.decorate('answeredEarly', () => early.answeredEarly());
  }
  await app.register(cookie);
  registerCrossSiteDefence(app, { publicUrl: config.publicUrl, allowedOrigins: config.allowedOrigins });
  await app.register(multipart, { limits: { fieldSize: 64 * 1024, fields: 20, parts: 30 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Reelhouse API', version: '1.0.0', description: 'Every call answers with the envelope { statusCode, data, message, success }.' },
      components: { securitySchemes: { cookieAuth: { type: 'apiKey', in: 'cookie', name: 'accessToken' }, bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  // Its page has inline scripts and styles: staticCSP gives it a policy with their hashes.
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authPlugin, { verify: parts.verifySession });
  // WebSocket routes (a browser publishing a live) go through the same hooks as any request first.
  await app.register(websocket, { options: { maxPayload: 8 * 1024 * 1024 } });

  await app.register(
    async (api) => {
      api.get(
        '/healthcheck',
        {
          schema: {
            tags: ['health'],
            response: {
              200: envelopeSchema(z.object({ database: z.boolean(), storage: z.boolean() })),
              503: envelopeSchema(z.object({ database: z.boolean(), storage: z.boolean() })),
            },
          },
        },
        async (_request, reply) => {
          const database = await parts.databaseReachable();
          const storage = await parts.storageReachable();
          const status = database && storage ? 200 : 503;
          return reply.status(status).send(envelope({ database, storage }, status === 200 ? 'OK' : 'Unhealthy', status));
        },
      );
      await parts.api(api);
    },
    { prefix: API_PREFIX },
  );
  // Media from storage (local disk, or the bucket proxied when no MEDIA_BASE_URL serves it directly).
  // Remote sites' viewers play this site's videos from here when it federates: their pages may read its media.
  await app.register(mediaRoutes(ctx.storage, undefined, { shareWithOtherSites: config.federation.enabled }));
  // RSS and Atom feeds: addresses given to feed readers, so outside the versioned API.
  await app.register(parts.site);

  // Not /assets/: that is where the web client's hashed files live.
  await app.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/static/', decorateReply: false, maxAge: '7d' });
  await registerWebClient(app, config.webDist, {
    pageMeta: (pagePath, request) => parts.pageMeta(pagePath, siteOrigin(config.publicUrl, request), requestLanguage(request)),
    embedAncestors: config.embedAncestors,
  });
  return app;
}

function readIndexHtml(webDist: string | null): string | null {
  const file = webDist ? path.join(webDist, 'index.html') : null;
  return file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/**
 * Serves the built web client, with every unknown non-API path falling back to index.html. Pages
 * with a link preview (a video, a channel) get their title and OpenGraph tags written into it.
 */
async function registerWebClient(
  app: FastifyInstance,
  webDist: string | null,
  { pageMeta, embedAncestors }: { pageMeta: (pagePath: string, request: FastifyRequest) => Promise<PageMeta | null>; embedAncestors: readonly string[] },
) {
  if (!webDist || !fs.existsSync(path.join(webDist, 'index.html'))) return;
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: false,
    decorateReply: true,
    setHeaders: (reply, filePath) => {
      // Vite's hashed assets never change; the entry page always may.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  const serveIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    const meta = await pageMeta(request.url.split('?')[0]!, request);
    if (!meta) return reply.sendFile('index.html', webDist);
    // The tags' words follow Accept-Language.
    reply.header('vary', 'Accept-Language');
    const html = await fs.promises.readFile(path.join(webDist, 'index.html'), 'utf8');
    return reply.type('text/html; charset=utf-8').send(withHead(html, meta));
  };
  app.get('/', serveIndex);
  // The embed page is the one page other sites may frame (every other answer keeps frame-ancestors 'none').
  app.get('/embed/:videoId', { ...app.frameableBy(embedAncestors) }, serveIndex);
  app.get('/*', async (request, reply) => {
    // The router has already decoded the path once; decoding again would turn %25 into a bad escape.
    const rel = (request.params as { '*': string })['*'];
    const file = path.join(webDist, rel);
    if (rel && file.startsWith(webDist) && fs.existsSync(file) && fs.statSync(file).isFile()) return reply.sendFile(rel, webDist);
    // Federation's addresses answer 404 rather than the web client when FEDERATION is off.
    if (['api/', 'media/', 'ap/', '.well-known/', 'nodeinfo/'].some((p) => rel.startsWith(p))) {
      return reply.status(404).send({ statusCode: 404, data: null, message: `Route ${request.method} ${shortPath(`/${rel}`)} not found`, success: false });
    }
    return serveIndex(request, reply);
  });
}
