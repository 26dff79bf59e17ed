import { CreatePlaylistBody, envelope as envelopeSchema, Id, Playlist, PlaylistDetail, UpdatePlaylistBody } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { cachedForSignedOut } from '../../http/answer-cache.js';
import type { PlaylistsService } from './playlists.service.js';

const tags = ['playlists'];
const IdParams = z.object({ id: Id });
const VideoInPlaylistParams = z.object({ videoId: Id, playlistId: Id });

/** SPEC.md names the body {updatedPlaylist}; both the bare fields and that wrapper are accepted. */
const UpdateBody = z.preprocess((body) => {
  if (body && typeof body === 'object' && 'updatedPlaylist' in body) return (body as { updatedPlaylist: unknown }).updatedPlaylist ?? {};
  return body ?? {};
}, UpdatePlaylistBody);

export const playlistsRoutes: FastifyPluginAsyncZod<{ playlists: PlaylistsService }> = async (app, { playlists }) => {
  for (const url of ['/playlist', '/playlist/']) {
    app.post(
      url,
      {
        preHandler: requireUser,
        schema: { tags, body: CreatePlaylistBody, response: { 201: envelopeSchema(Playlist) } },
      },
      async (request, reply) => reply.status(201).send(envelope(await playlists.create(currentUser(request), request.body), 'Playlist created', 201)),
    );
  }

  app.get(
    '/playlist/:id',
    {
      config: cachedForSignedOut,
      schema: {
        tags,
        summary:
          "A playlist with the videos the caller may watch, in order: the owner's any time, anyone else's when public or unlisted (signed out otherwise: 401)",
        params: IdParams,
        response: { 200: envelopeSchema(PlaylistDetail) },
      },
    },
    async (request) => envelope(await playlists.detail(request.params.id, request.user), 'Playlist fetched'),
  );

  app.patch(
    '/playlist/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Rename, redescribe or change who sees it: { name?, description?, visibility? } or { updatedPlaylist: { ... } }',
        params: IdParams,
        body: UpdateBody,
        response: { 200: envelopeSchema(Playlist) },
      },
    },
    async (request) => envelope(await playlists.update(request.params.id, currentUser(request), request.body), 'Playlist updated'),
  );

  app.delete(
    '/playlist/:id',
    {
      preHandler: requireUser,
      schema: { tags, params: IdParams, response: { 200: envelopeSchema(z.object({})) } },
    },
    async (request) => {
      await playlists.remove(request.params.id, currentUser(request));
      return envelope({}, 'Playlist deleted');
    },
  );

  app.patch(
    '/playlist/add/:videoId/:playlistId',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'Append a video (already there: no change)', params: VideoInPlaylistParams, response: { 200: envelopeSchema(Playlist) } },
    },
    async (request) =>
      envelope(await playlists.addVideo(request.params.playlistId, request.params.videoId, currentUser(request)), 'Video added to playlist successfully'),
  );

  app.patch(
    '/playlist/remove/:videoId/:playlistId',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'Take a video out (not there: no change)', params: VideoInPlaylistParams, response: { 200: envelopeSchema(Playlist) } },
    },
    async (request) =>
      envelope(await playlists.removeVideo(request.params.playlistId, request.params.videoId, currentUser(request)), 'Video removed from playlist'),
  );

  app.get(
    '/playlist/user/:userId',
    {
      config: cachedForSignedOut,
      schema: {
        tags,
        summary: "A user's playlists, newest first: all of them to the owner, the public ones to anyone else",
        params: z.object({ userId: Id }),
        response: { 200: envelopeSchema(z.array(Playlist)) },
      },
    },
    async (request) => envelope(await playlists.listForUser(request.params.userId, request.user), 'Playlists fetched'),
  );
};
