import fs from 'node:fs';
import type { Federation } from '@fedify/fedify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Dialect } from '../db/dialect.js';
import { FederationMessagesRepository } from '../jobs/federation-messages.repository.js';
import { FederationQueue } from '../jobs/federation-queue.js';
import type { JobHandlers, JobQueue } from '../jobs/job-types.js';
import { buildActivityPub } from '../modules/federation/activitypub.js';
import { ChannelFollows } from '../modules/federation/channel-follows.js';
import { FederationKvRepository } from '../modules/federation/federation-kv.repository.js';
import { FederationRepository } from '../modules/federation/federation.repository.js';
import { FederationService } from '../modules/federation/federation.service.js';
import { federationRoutes } from '../modules/federation/federation.routes.js';
import { InstanceService } from '../modules/instance/instance.service.js';
import { InstanceSettingsRepository } from '../modules/instance/instance-settings.repository.js';
import { isPrivateAddress } from '../modules/federation/remote-address.js';
import { FederationBlocks } from '../modules/federation/blocks.js';
import { FederationBlocksRepository } from '../modules/federation/blocks.repository.js';
import { AuditLogRepository } from '../modules/audit/audit-log.repository.js';
import { AccountBansRepository } from '../modules/moderation/account-bans.repository.js';
import { SentVideosRepository } from '../modules/federation/sent-videos.repository.js';
import { VideoDelivery } from '../modules/federation/video-delivery.js';
import { RemoteChannels } from '../modules/federation/remote-channels.js';
import { RemoteChannelsRepository } from '../modules/federation/remote-channels.repository.js';
import { VideosRepository } from '../modules/videos/videos.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import type { VideoEvents } from '../modules/videos/video-events.js';
import { noPublicChanges, type PublicChanges } from '../lib/public-changes.js';
import type { AnswerStore } from '../lib/answer-store.js';
import { RemoteInteractions } from '../modules/federation/remote-interactions.js';
import { RemoteInteractionsRepository } from '../modules/federation/remote-interactions.repository.js';
import { type CommentEvents, CommentsService } from '../modules/comments/comments.service.js';
import { CommentsRepository } from '../modules/comments/comments.repository.js';
import { LikesService } from '../modules/likes/likes.service.js';
import { LikesRepository } from '../modules/likes/likes.repository.js';
import type { Inbound } from '../modules/federation/inbox-listeners.js';
import type { Storage } from '../storage/storage.js';

/** ActivityPub for one process: its rules, the library's object, the follows channels send, and what the process runs. */
export interface FederationSite {
  service: FederationService;
  activityPub: Federation<void>;
  follows: ChannelFollows;
  /** Comments and likes across servers: what members here write under remote videos goes out. */
  interactions: RemoteInteractions;
  /** Remote channels and videos kept here: looked up, subscribed to, and what their servers send. */
  remote: RemoteChannels;
  /** Admins' blocks of remote servers. */
  blocks: FederationBlocks;
  /** Tells a video's followers what became of it (the `federation.video` job's work). */
  videos: VideoDelivery;
  /** The queue's job handlers, for a process that runs jobs. */
  handlers(): Pick<JobHandlers, 'federation.message' | 'federation.video'>;
  /** Starts handing queued messages to the library; call once the job queue runs the handlers. */
  start(): void;
  /** WebFinger, NodeInfo and the /ap/ addresses. */
  routes(app: FastifyInstance): Promise<void>;
  close(): void;
}

/** Attempts of one queued message beyond the library's own delivery retries: for what escapes them. */
const MESSAGE_ATTEMPTS = 5;

/** The site's version: the root package.json's (server/src/composition or server/dist/composition, three levels down). */
function siteVersion(): string {
  return (JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * Builds federation when FEDERATION is on (null when it is off: then nothing of it is served or
 * run). The API processes and `npm run worker` both build it, so whichever process takes a queued
 * delivery can sign and send it.
 */
export function buildFederation(deps: {
  config: Config;
  db: Db;
  dialect: Dialect;
  storage: Storage;
  queue: JobQueue;
  logger: Logger;
  /** Told when a remote video arrives or changes: notifications to subscribers, the answer cache. */
  events?: Partial<VideoEvents>;
  /** Told when a remote member comments on a video here: notifications to its owner. */
  commentEvents?: CommentEvents;
  changes?: PublicChanges;
  /** Where the routes keep actor documents (the API process's answer store). */
  answers?: Pick<AnswerStore, 'lookup' | 'keep'>;
}): FederationSite | null {
  const { config, db, storage, queue, logger } = deps;
  if (!config.federation.enabled || !config.publicUrl) return null;
  const origin = new URL(config.publicUrl).origin;
  const blocks = new FederationBlocks({
    blocks: new FederationBlocksRepository(db),
    audit: new AuditLogRepository(db),
    bans: new AccountBansRepository(db),
    changes: deps.changes,
  });
  const service = new FederationService({
    rows: new FederationRepository(db),
    allowPrivateAddresses: config.federation.allowPrivateAddresses,
    isPrivateAddress,
    blocked: (address) => blocks.blocks(address),
  });
  const messages = new FederationQueue(queue, new FederationMessagesRepository(db), { maxAttempts: MESSAGE_ATTEMPTS });
  const version = siteVersion();
  // Its own settings reader, as a worker builds no services; the site's name is all it asks.
  const instance = new InstanceService({ settings: new InstanceSettingsRepository(db), config });
  let inbound: (Inbound & Pick<RemoteInteractions, 'publicNote'>) | null = null;
  const activityPub = buildActivityPub({
    service,
    kv: new FederationKvRepository(db),
    queue: messages,
    origin,
    allowPrivateAddress: config.federation.allowPrivateAddresses,
    siteName: async () => (await instance.settings()).name,
    mediaUrl: (key) => storage.url(key),
    version,
    userAgent: `Reelhouse/${version} (+${origin}/)`,
    logger,
    inbound: () => inbound,
  });
  const follows = new ChannelFollows(activityPub, service, origin);
  const remote = new RemoteChannels({
    federation: activityPub,
    rows: new RemoteChannelsRepository(db, new VideosRepository(db, deps.dialect), new UsersRepository(db)),
    follows,
    origin,
    blocked: (address) => blocks.blocks(address),
    events: deps.events,
    changes: deps.changes,
    logger,
  });
  const changes = deps.changes ?? noPublicChanges;
  // Services of their own, without federation: what remote members do here is kept under the
  // site's rules and notifications, and never sent back out.
  const interactions = new RemoteInteractions({
    federation: activityPub,
    rows: new RemoteInteractionsRepository(db),
    remote,
    comments: new CommentsService({ comments: new CommentsRepository(db), storage, events: deps.commentEvents, changes }),
    likes: new LikesService({ likes: new LikesRepository(db), storage, changes }),
    origin,
    changes,
  });
  inbound = {
    videoArrived: (actorId, video) => remote.videoArrived(actorId, video),
    videoGone: (actorId, objectId) => remote.videoGone(actorId, objectId),
    noteArrived: (arriving) => interactions.noteArrived(arriving),
    noteEdited: (actorId, note) => interactions.noteEdited(actorId, note),
    noteGone: (actorId, objectId) => interactions.noteGone(actorId, objectId),
    likeArrived: (arriving, liked) => interactions.likeArrived(arriving, liked),
    shareArrived: (actorId, objectId, shared) => interactions.shareArrived(actorId, objectId, shared),
    publicNote: (commentId) => interactions.publicNote(commentId),
  };
  const videos = new VideoDelivery({
    federation: activityPub,
    service,
    sent: new SentVideosRepository(db),
    site: { origin, mediaUrl: (key) => storage.url(key) },
  });
  const stop = new AbortController();
  return {
    service,
    activityPub,
    follows,
    interactions,
    remote,
    blocks,
    videos,
    handlers: () => ({
      ...messages.handlers(),
      'federation.video': async ({ videoId }) => {
        await videos.deliver(videoId);
      },
    }),
    start: () => {
      activityPub.startQueue(undefined, { signal: stop.signal }).catch((err: unknown) => logger.error({ err }, 'federation queue stopped'));
    },
    routes: (app) =>
      federationRoutes(app, {
        federation: activityPub,
        publicUrl: config.publicUrl!,
        blocked: (address) => blocks.blocks(address),
        answers: deps.answers ?? { lookup: async () => ({ generation: null, answer: null }), keep: async () => {} },
        perDomainPerMinute: config.federation.inboxPerDomainPerMinute,
        logger,
      }),
    close: () => stop.abort(),
  };
}
