import { BrowserPublishQuery, envelope as envelopeSchema, VideoIdParams } from '@reelhouse/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebSocket } from 'ws';
import { AppError, conflict, forbidden, unauthorized, upgradeRequired } from '../../http/errors.js';
import { crossSiteRefusal, type SiteOrigins } from '../../http/cross-site.js';
import { type BrowserPublishing, CLOSE } from './browser-publishing.js';
import type { LiveService } from './live.service.js';

/** A close frame's reason is at most 123 bytes. */
function closeReason(message: string): string {
  const bytes = Buffer.from(message, 'utf8');
  return bytes.length <= 123
    ? message
    : `${bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '')}...`;
}

/**
 * GET /live/{videoId}/publish: a browser publishing its live over a WebSocket. Every refusal is the
 * one a plain request gets as an HTTP status (401, 403/404 by the access rule, 409), and on a
 * WebSocket a close frame with code 4000 + that status and the message as its reason, which a
 * browser can read (it cannot read the status of a refused upgrade).
 */
export const livePublishRoutes: FastifyPluginAsyncZod<{ live: LiveService; publishing: BrowserPublishing | null; origins: SiteOrigins }> = async (
  app,
  { live, publishing, origins },
) => {
  const refusal = crossSiteRefusal(origins);

  /** The stream key to publish with, once every check has passed. */
  const admit = async (request: FastifyRequest, videoId: string): Promise<string> => {
    if (!request.user) throw unauthorized('Sign in to publish a live');
    // A WebSocket is opened with a GET, which the cross-site defence of changes does not look at.
    const crossSite = refusal(request);
    if (crossSite) throw forbidden(crossSite);
    const key = await live.browserPublishKey(videoId, request.user);
    if (!publishing) throw conflict('Live ingest is off on this site');
    if (publishing.busy(videoId)) throw conflict('This live is already being published from a browser');
    return key;
  };

  app.route({
    method: 'GET',
    url: '/live/:videoId/publish',
    schema: {
      tags: ['live'],
      summary:
        'Publish a live from the browser: a WebSocket (cookie session, owner only, from a page of this site) taking the MediaRecorder chunks of `type`; a plain request answers why it would be refused, or 426',
      params: VideoIdParams,
      querystring: BrowserPublishQuery,
      response: { 426: envelopeSchema(z.null()) },
    },
    handler: async (request) => {
      await admit(request, request.params.videoId);
      throw upgradeRequired('Open this address as a WebSocket to publish');
    },
    wsHandler: async (socket: WebSocket, request) => {
      let key: string;
      try {
        key = await admit(request, request.params.videoId);
      } catch (err) {
        const status = err instanceof AppError ? err.statusCode : 500;
        socket.close(
          status >= 500 ? CLOSE.failed : CLOSE.refused(status),
          closeReason(err instanceof AppError && status < 500 ? err.message : 'Publishing failed'),
        );
        if (status >= 500) request.log.error({ err }, 'browser publishing failed');
        return;
      }
      publishing!.publish(socket, request.params.videoId, key, request.query.type);
    },
  });
};
