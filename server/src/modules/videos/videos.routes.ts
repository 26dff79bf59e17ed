import type { InstanceSettings } from '@reelhouse/contract';
import { envelope as envelopeSchema, IdParams, PageQuery, VideoDetail, VideoListQuery, VideoPage, VideoStats, VideoStatsQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { sharedWithViewers } from '../../http/shared-answers.js';
import { readMultipart } from '../../http/multipart.js';
import type { VideosService } from './videos.service.js';
import type { VideoStatsService } from './video-stats.service.js';

const tags = ['videos'];

/**
 * The list's query, except that sortBy has no default here: with a search and no sortBy the answer
 * is ranked by relevance, and an explicit sortBy wins. Allowed values and messages are the contract's.
 */
const ListQuery = VideoListQuery.extend({ sortBy: PageQuery.shape.sortBy.unwrap().optional() });

export const videosRoutes: FastifyPluginAsyncZod<{
  videos: VideosService;
  stats: VideoStatsService;
  /** The site's settings (the instance module's service), taken by shape so that this module does not depend on it. */
  instance: { settings(): Promise<InstanceSettings> };
  config: Config;
  tmpDir: string;
}> = async (app, { videos, stats, instance, config, tmpDir }) => {
  const uploadLimit = { rateLimit: { max: config.rateLimits.uploadsPerHour, timeWindow: '1 hour' } };

  app.get(
    '/videos/',
    {
      config: sharedWithViewers((page: VideoPage, viewer, request) => videos.pageForViewer(page, viewer, (request.query as { userId?: string }).userId)),
      schema: { tags, summary: 'List and search videos', querystring: ListQuery, response: { 200: envelopeSchema(VideoPage) } },
    },
    async (request) => envelope(await videos.list(request.query, request.user), 'Videos fetched'),
  );

  app.post(
    '/videos/',
    {
      preHandler: requireUser,
      config: uploadLimit,
      schema: {
        tags,
        summary:
          'Upload a video (multipart: title, description, videoFile; thumbnail image, or thumbnailTime in seconds to cut that frame; optional visibility (default public) and publishAt (private until then))',
        response: { 201: envelopeSchema(VideoDetail) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const limits = await instance.settings();
      const form = await readMultipart(request, tmpDir, {
        files: { videoFile: { maxBytes: limits.maxVideoBytes }, thumbnail: { maxBytes: config.limits.maxImageBytes } },
        fields: ['title', 'description', 'visibility', 'publishAt', 'thumbnailTime'],
      });
      let video;
      try {
        video = await videos.uploads.create(user, form.fields, form.files, { maxDurationSeconds: limits.maxVideoDurationSeconds });
      } finally {
        // Before the answer goes out: a client that has its answer finds no temporary file left.
        await form.cleanup();
      }
      return reply.status(201).send(envelope(video, 'Video uploaded successfully', 201));
    },
  );

  app.get(
    '/videos/:id',
    {
      config: sharedWithViewers((video: VideoDetail, viewer) => videos.detailForViewer(video, viewer)),
      schema: { tags, params: IdParams, response: { 200: envelopeSchema(VideoDetail) } },
    },
    async (request) => envelope(await videos.get(request.params.id, request.user), 'Video fetched'),
  );

  app.get(
    '/videos/:id/stats',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A video's views per day (UTC, zero-filled, oldest first) and totals; owner and admins only",
        params: IdParams,
        querystring: VideoStatsQuery,
        response: { 200: envelopeSchema(VideoStats) },
      },
    },
    async (request) => envelope(await stats.stats(request.params.id, currentUser(request), request.query.days), 'Video stats fetched'),
  );

  app.patch(
    '/videos/:id',
    {
      preHandler: requireUser,
      config: uploadLimit,
      schema: {
        tags,
        summary: 'Edit a video (multipart, each optional: title, description, thumbnail image or thumbnailTime in seconds, visibility, publishAt)',
        params: IdParams,
        response: { 200: envelopeSchema(VideoDetail) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const form = await readMultipart(request, tmpDir, {
        files: { thumbnail: { maxBytes: config.limits.maxImageBytes } },
        fields: ['title', 'description', 'visibility', 'publishAt', 'thumbnailTime'],
      });
      try {
        return envelope(await videos.update(request.params.id, user, form.fields, form.files.thumbnail), 'Video updated successfully');
      } finally {
        await form.cleanup();
      }
    },
  );

  app.delete(
    '/videos/:id',
    {
      preHandler: requireUser,
      schema: { tags, params: IdParams, response: { 200: envelopeSchema(z.object({})) } },
    },
    async (request) => {
      await videos.remove(request.params.id, currentUser(request));
      return envelope({}, 'Video deleted successfully');
    },
  );

  app.patch(
    '/videos/publish/:id',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'Publish or unpublish (toggle)', params: IdParams, response: { 200: envelopeSchema(VideoDetail) } },
    },
    async (request) => {
      const video = await videos.togglePublish(request.params.id, currentUser(request));
      return envelope(video, video.isPublished ? 'Video published' : 'Video unpublished');
    },
  );

  app.patch(
    '/videos/increment-views/:id',
    {
      config: { rateLimit: { max: config.rateLimits.viewsPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Count a view (at most one per viewer per video per hour)',
        params: IdParams,
        response: { 200: envelopeSchema(z.object({ views: z.number().int() })) },
      },
    },
    async (request) => {
      const { views, counted } = await videos.countView(request.params.id, request.user, {
        userId: request.user?.id ?? null,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      return envelope({ views }, counted ? 'View counted' : 'View already counted');
    },
  );
};
